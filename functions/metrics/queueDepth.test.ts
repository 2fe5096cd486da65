import { ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../scripts/local/engines/credentials.js';
import { type SqsEngine, startSqs } from '../../scripts/local/engines/sqs.js';
import { resetClients } from '../lib/aws/clients.js';
import { QUEUES } from '../registry.js';
import { readQueueDepths } from './queueDepth.js';

// The queue family's figures on fauxqs, as `npm start` runs it: every queue of the registry, its
// waiting messages and those received but not deleted.

const region = 'us-east-1';
let engine: SqsEngine;
let sqs: SQSClient;
const savedEnv = { ...process.env };
const urlOf = (name: string) => engine.queues.find((q) => q.name === name)?.url as string;

beforeAll(async () => {
  engine = await startSqs({ queues: QUEUES, region });
  Object.assign(process.env, {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    SQS_ENDPOINT: engine.endpoint,
    ...Object.fromEntries(QUEUES.map((q) => [`${q.name.toUpperCase()}_QUEUE_URL`, urlOf(q.name)])),
  });
  resetClients();
  sqs = new SQSClient({ region, endpoint: engine.endpoint, credentials: LOCAL_CREDENTIALS });
});
afterAll(async () => {
  sqs?.destroy();
  await engine?.stop();
  process.env = savedEnv;
  resetClients();
});

describe('queue depth', () => {
  it('reads each queue: messages waiting, and those received and not yet done', async () => {
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: urlOf('notify'),
        Entries: [1, 2, 3].map((n) => ({ Id: String(n), MessageBody: JSON.stringify({ n }) })),
      }),
    );
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: urlOf('notify'), MaxNumberOfMessages: 1 }));
    expect(received.Messages).toHaveLength(1);

    const { depths, failed } = await readQueueDepths();
    expect(failed).toEqual([]);
    expect(depths).toEqual([
      { queue: 'check', visible: 0, in_flight: 0 },
      { queue: 'notify', visible: 2, in_flight: 1 },
      { queue: 'bank', visible: 0, in_flight: 0 },
      { queue: 'followUp', visible: 0, in_flight: 0 },
    ]);
  });

  it('leaves out a queue it cannot read and still counts the others', async () => {
    const url = process.env.BANK_QUEUE_URL;
    process.env.BANK_QUEUE_URL = `${engine.endpoint}/000000000000/no-such-queue`;
    try {
      const { depths, failed } = await readQueueDepths();
      expect(failed).toEqual(['bank']);
      expect(depths.map((d) => d.queue)).toEqual(['check', 'notify', 'followUp']);
    } finally {
      process.env.BANK_QUEUE_URL = url;
    }
  });
});
