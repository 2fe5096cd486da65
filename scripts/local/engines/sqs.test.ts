import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from './credentials.js';
import { fauxqsQueueClass, MAX_TICK_MS, nextTickMs } from './fauxqsTimers.js';
import { type SqsEngine, startSqs } from './sqs.js';

// The local queue engine keeps SQS's timing (a delayed message and a timed-out receive come back
// to a waiting long poll when due) while its timer wakes only when something is due.
describe('local SQS engine (fauxqs)', () => {
  let engine: SqsEngine;
  let sqs: SQSClient;
  let url: string;
  beforeAll(async () => {
    engine = await startSqs({
      queues: [{ name: 'check', visibilityTimeout: 1, maxReceiveCount: 5 }],
      region: 'us-east-1',
    });
    url = engine.queues[0].url;
    sqs = new SQSClient({ region: 'us-east-1', endpoint: engine.endpoint, credentials: LOCAL_CREDENTIALS });
  });
  afterAll(async () => {
    sqs?.destroy();
    await engine?.stop();
  });

  const receive = (wait: number) =>
    sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: wait, MaxNumberOfMessages: 1 }));
  // A message left undeleted would come back a second later, into the next test.
  const done = (handle: string | undefined) =>
    sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: handle as string }));

  it('hands a delayed message to a waiting receive when its delay ends', async () => {
    const started = Date.now();
    const waiting = receive(5);
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'later', DelaySeconds: 1 }));
    const out = await waiting;
    const took = Date.now() - started;
    expect(out.Messages?.[0]?.Body).toBe('later');
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(1000 + MAX_TICK_MS + 500);
    await done(out.Messages?.[0]?.ReceiptHandle);
  });

  it('gives a message received but not deleted back to a waiting receive once its visibility times out', async () => {
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'again' }));
    const first = await receive(1);
    expect(first.Messages?.[0]?.Body).toBe('again');
    const started = Date.now();
    const second = await receive(5);
    expect(second.Messages?.[0]?.Body).toBe('again');
    expect(Date.now() - started).toBeLessThan(1000 + MAX_TICK_MS + 500);
    await done(second.Messages?.[0]?.ReceiptHandle);
  });

  it('wakes an idle queue with a waiting receive a few times a second, not fifty', async () => {
    const SqsQueue = (await fauxqsQueueClass()) as { prototype: { processTimers(): void } };
    const original = SqsQueue.prototype.processTimers;
    let ticks = 0;
    SqsQueue.prototype.processTimers = function (this: unknown) {
      ticks++;
      original.call(this);
    };
    try {
      const out = await receive(2);
      expect(out.Messages ?? []).toHaveLength(0);
    } finally {
      SqsQueue.prototype.processTimers = original;
    }
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBeLessThanOrEqual((2000 / MAX_TICK_MS) * 1.5);
  });
});

describe('nextTickMs', () => {
  const empty = { inflightMessages: new Map(), delayedMessages: [], fifoDelayed: new Map() };
  it('waits the longest tick when nothing is due', () => {
    expect(nextTickMs(empty, 1000)).toBe(MAX_TICK_MS);
  });
  it('wakes for the nearest delayed message or visibility deadline, no sooner than 20 ms', () => {
    expect(nextTickMs({ ...empty, delayedMessages: [{ delayUntil: 1100 }, {}] }, 1000)).toBe(100);
    expect(
      nextTickMs(
        {
          ...empty,
          inflightMessages: new Map([['a', { visibilityDeadline: 1060 }]]),
          fifoDelayed: new Map([['g', [{ delayUntil: 1080 }]]]),
        },
        1000,
      ),
    ).toBe(60);
    expect(nextTickMs({ ...empty, delayedMessages: [{ delayUntil: 900 }] }, 1000)).toBe(20);
  });
});
