import { createHash, randomUUID } from 'node:crypto';
import type { Message } from '@aws-sdk/client-sqs';
import type { ScheduledEvent, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';

/** The SQS event Lambda's poller would deliver for these received messages. */
export function sqsEvent(messages: Message[], queueArn: string, region: string): SQSEvent {
  return { Records: messages.map((m) => sqsRecord(m, queueArn, region)) };
}

function sqsRecord(m: Message, queueArn: string, region: string): SQSRecord {
  const attrs = m.Attributes ?? {};
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, a] of Object.entries(m.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      dataType: a.DataType ?? 'String',
      ...(a.StringValue !== undefined ? { stringValue: a.StringValue } : {}),
      ...(a.BinaryValue !== undefined ? { binaryValue: Buffer.from(a.BinaryValue).toString('base64') } : {}),
      stringListValues: a.StringListValues ?? [],
      binaryListValues: (a.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
    };
  }
  const body = m.Body ?? '';
  return {
    messageId: m.MessageId ?? randomUUID(),
    receiptHandle: m.ReceiptHandle ?? '',
    body,
    attributes: {
      ApproximateReceiveCount: attrs.ApproximateReceiveCount ?? '1',
      SentTimestamp: attrs.SentTimestamp ?? String(Date.now()),
      SenderId: attrs.SenderId ?? 'AIDAIENQZJOLO23YVJ4VO',
      ApproximateFirstReceiveTimestamp: attrs.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(attrs.MessageGroupId ? { MessageGroupId: attrs.MessageGroupId } : {}),
      ...(attrs.MessageDeduplicationId ? { MessageDeduplicationId: attrs.MessageDeduplicationId } : {}),
      ...(attrs.SequenceNumber ? { SequenceNumber: attrs.SequenceNumber } : {}),
    },
    messageAttributes,
    md5OfBody: m.MD5OfBody ?? createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

/** The EventBridge event a `rate(...)` schedule delivers. */
export function scheduledEvent(ruleName: string, region: string, now = Date.now()): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    region,
    resources: [`arn:aws:events:${region}:000000000000:rule/${ruleName}`],
    detail: {},
  };
}
