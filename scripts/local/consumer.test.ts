import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { localSqsFixture } from '../../tests/helpers/localSqs.js';
import { logger } from '../../functions/lib/logger.js';
import { sendToQueue } from '../../functions/lib/queue/sendToQueue.js';
import { sqsRecordHandler } from '../../functions/lib/queue/sqsRecordHandler.js';
import { startQueueConsumer } from './consumer.js';
import { lambdaContext } from './lambdaContext.js';

const region = 'us-east-1';
const local = localSqsFixture({
  name: 'check',
  // Short visibility so that a failed message comes back within the test.
  visibilityTimeout: 1,
  maxReceiveCount: 2,
  urlEnv: 'CHECK_QUEUE_URL',
});

function consume(handler: (event: SQSEvent) => Promise<SQSBatchResponse | undefined>) {
  const queue = local.engine.queues[0];
  return startQueueConsumer({
    name: 'test',
    queueUrl: queue.url,
    queueArn: queue.arn,
    batchSize: 10,
    concurrency: 1,
    handler,
    context: () => lambdaContext({ name: 'test', memoryMb: 128, timeoutSeconds: 10 }, region),
    sqs: local.sqs,
    region,
    waitTimeSeconds: 1,
    onError: () => {},
  });
}

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (await check()) return;
  }
  throw new Error('condition not met in time');
}

async function queueDepth(url: string): Promise<number> {
  const out = await local.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(out.Attributes?.ApproximateNumberOfMessages ?? 0);
}

async function drain(url: string): Promise<string[]> {
  const out = await local.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
  );
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body ?? '{}').n);
}

describe('the local SQS consumer', () => {
  it('deletes the messages of a batch that succeeded and redelivers the one that failed, until the DLQ', async () => {
    const deliveries: { n: string; receiveCount: string; queue: string }[] = [];
    const handler = sqsRecordHandler(z.object({ n: z.string() }), async (body, record) => {
      deliveries.push({
        n: body.n,
        receiveCount: record.attributes.ApproximateReceiveCount,
        queue: record.eventSourceARN,
      });
      if (body.n === 'b') throw new Error('site b is down');
    });
    const consumer = consume(handler);
    await sendToQueue('check', [{ n: 'a' }, { n: 'b' }, { n: 'c' }]);

    // After maxReceiveCount (2) deliveries, the next receive moves the failing message to the DLQ.
    await until(async () => (await queueDepth(local.engine.queues[0].dlqUrl)) === 1);
    await consumer.stop();

    expect(deliveries.filter((d) => d.n === 'a')).toHaveLength(1);
    expect(deliveries.filter((d) => d.n === 'c')).toHaveLength(1);
    expect(deliveries.filter((d) => d.n === 'b').map((d) => d.receiveCount)).toEqual(['1', '2']);
    expect(deliveries[0].queue).toBe(local.engine.queues[0].arn);
    expect(await drain(local.engine.queues[0].url)).toEqual([]);
    expect(await drain(local.engine.queues[0].dlqUrl)).toEqual(['b']);
  });

  it('sends a malformed message to the dead-letter queue with a clear log line and processes the next good one', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const processed: string[] = [];
    const consumer = consume(
      sqsRecordHandler(z.object({ n: z.string() }), async ({ n }) => {
        processed.push(n);
      }),
    );
    await sendToQueue('check', [{ n: 42 }]);
    await sendToQueue('check', [{ n: 'good' }]);

    await until(async () => (await queueDepth(local.engine.queues[0].dlqUrl)) === 1);
    await until(() => processed.includes('good'));
    await consumer.stop();
    const calls = [...errors.mock.calls];
    errors.mockRestore();

    expect(processed).toEqual(['good']);
    expect(await drain(local.engine.queues[0].dlqUrl)).toEqual([42]);
    expect(await drain(local.engine.queues[0].url)).toEqual([]);
    const logged = calls.filter(([message]) => message === 'malformed queue message, left for the dead-letter queue');
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged[0][1]).toMatchObject({ reason: expect.stringContaining('n: ') });
  });

  it('retries the whole batch when the handler throws', async () => {
    let invocations = 0;
    const seen: string[] = [];
    const consumer = consume(async (event) => {
      invocations++;
      if (invocations === 1) throw new Error('cold start failed');
      for (const r of event.Records) seen.push(JSON.parse(r.body).n);
      return { batchItemFailures: [] };
    });
    await sendToQueue('check', [{ n: 'x' }, { n: 'y' }]);

    await until(() => seen.length === 2);
    await consumer.stop();

    expect(seen.sort()).toEqual(['x', 'y']);
    expect(await drain(local.engine.queues[0].url)).toEqual([]);
  });

  it('runs at most `concurrency` invocations at once and waits for them on stop', async () => {
    let running = 0;
    let peak = 0;
    let finished = 0;
    const queue = local.engine.queues[0];
    const consumer = startQueueConsumer({
      name: 'test',
      queueUrl: queue.url,
      queueArn: queue.arn,
      batchSize: 1,
      concurrency: 2,
      handler: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 300));
        running--;
        finished++;
      },
      context: () => lambdaContext({ name: 'test', memoryMb: 128, timeoutSeconds: 10 }, region),
      sqs: local.sqs,
      region,
      waitTimeSeconds: 1,
    });
    await sendToQueue('check', [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);

    await until(() => finished >= 3);
    expect(await consumer.stop()).toBe(true);

    expect(peak).toBe(2);
    expect(running).toBe(0);
  });

  it('frees the invocation slot once the handler answers, as Lambda does, and waits for the delete on stop', async () => {
    const queue = local.engine.queues[0];
    // Deletes held back until released: the next message must not wait for them.
    let releaseDeletes = () => {};
    const deletesHeld = new Promise<void>((r) => {
      releaseDeletes = r;
    });
    let deletes = 0;
    const sqs = new Proxy(local.sqs, {
      get(target, prop, receiver) {
        if (prop !== 'send') return Reflect.get(target, prop, receiver);
        return async (command: { constructor: { name: string } }, options?: unknown) => {
          if (command.constructor.name === 'DeleteMessageBatchCommand') {
            await deletesHeld;
            deletes++;
          }
          return (target.send as (c: unknown, o?: unknown) => Promise<unknown>)(command, options);
        };
      },
    });
    const seen: number[] = [];
    const consumer = startQueueConsumer({
      name: 'test',
      queueUrl: queue.url,
      queueArn: queue.arn,
      batchSize: 1,
      concurrency: 1,
      handler: async (event) => {
        seen.push(JSON.parse(event.Records[0].body).n);
      },
      context: () => lambdaContext({ name: 'test', memoryMb: 128, timeoutSeconds: 10 }, region),
      sqs,
      region,
      waitTimeSeconds: 1,
    });
    await sendToQueue('check', [{ n: 1 }, { n: 2 }]);

    // Both ran in the one slot while the first one's delete was still held (earlier tests' leftovers may run too).
    await until(() => seen.includes(1) && seen.includes(2));
    expect(deletes).toBe(0);
    const stopped = consumer.stop();
    await new Promise((r) => setTimeout(r, 200));
    releaseDeletes();
    expect(await stopped).toBe(true);
    expect(deletes).toBe(seen.length);
    expect(await queueDepth(queue.url)).toBe(0);
  });
});
