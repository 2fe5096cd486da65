import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { sqsRecordHandler } from './sqsRecordHandler.js';

function record(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '1',
      SenderId: 'x',
      ApproximateFirstReceiveTimestamp: '1',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:check',
    awsRegion: 'us-east-1',
  };
}

const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('sqsRecordHandler', () => {
  it('reports exactly the records that threw, so the others are not re-run', async () => {
    const handler = sqsRecordHandler<{ site: number }>(async ({ site }) => {
      if (site === 2) throw new Error('site 2 is down');
    });
    const res = await handler(
      event(record('m1', '{"site":1}'), record('m2', '{"site":2}'), record('m3', '{"site":3}')),
    );
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it('reports a body that is not JSON as failed, so it ends in the dead-letter queue', async () => {
    const seen: unknown[] = [];
    const handler = sqsRecordHandler(async (body) => {
      seen.push(body);
    });
    const res = await handler(event(record('bad', 'not json'), record('ok', '{"a":1}')));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect(seen).toEqual([{ a: 1 }]);
  });

  it('processes records one after another unless asked to run them in parallel', async () => {
    const run = async (parallel: boolean) => {
      let running = 0;
      let peak = 0;
      const handler = sqsRecordHandler(
        async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 20));
          running--;
        },
        { parallel },
      );
      await handler(event(record('1', '{}'), record('2', '{}'), record('3', '{}')));
      return peak;
    };
    expect(await run(false)).toBe(1);
    expect(await run(true)).toBe(3);
  });

  it('answers an empty failure list when every record succeeds', async () => {
    const handler = sqsRecordHandler(async () => {});
    expect(await handler(event(record('1', '{}')))).toEqual({ batchItemFailures: [] });
  });
});
