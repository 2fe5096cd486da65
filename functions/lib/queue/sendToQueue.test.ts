import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { localSqsFixture } from '../../../tests/helpers/localSqs.js';
import { sendToQueue } from './sendToQueue.js';

const local = localSqsFixture({
  name: 'notify',
  visibilityTimeout: 30,
  maxReceiveCount: 3,
  urlEnv: 'NOTIFY_QUEUE_URL',
});

async function receiveAll(): Promise<{ id: string; body: Record<string, unknown> }[]> {
  const all: { id: string; body: Record<string, unknown> }[] = [];
  for (;;) {
    const out = await local.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: local.engine.queues[0].url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    if (!out.Messages?.length) return all;
    for (const m of out.Messages) all.push({ id: m.MessageId as string, body: JSON.parse(m.Body as string) });
  }
}

describe('sendToQueue', () => {
  it('delivers every body as its own JSON message, more than one batch of 10 and over 256 KiB in all', async () => {
    const bodies = Array.from({ length: 23 }, (_, i) => ({ i, pad: 'x'.repeat(20_000) }));
    const ids = await sendToQueue('notify', bodies);
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);

    const received = await receiveAll();
    expect(received.map((m) => m.body.i as number).sort((a, b) => a - b)).toEqual(bodies.map((b) => b.i));
    expect(new Set(received.map((m) => m.id))).toEqual(new Set(ids));
  });

  it('holds messages back for delaySeconds', async () => {
    // The delay is the margin the first receive has to run in: 4 s, not the 2 s a loaded machine
    // once needed for a send and a receive.
    await sendToQueue('notify', [{ later: true }], { delaySeconds: 4 });
    expect(await receiveAll()).toEqual([]);
    await new Promise((r) => setTimeout(r, 4_200));
    expect((await receiveAll()).map((m) => m.body)).toEqual([{ later: true }]);
  });

  it('says which queue is not configured', async () => {
    const url = process.env.NOTIFY_QUEUE_URL;
    delete process.env.NOTIFY_QUEUE_URL;
    try {
      await expect(sendToQueue('notify', [{}])).rejects.toThrow('NOTIFY_QUEUE_URL');
    } finally {
      process.env.NOTIFY_QUEUE_URL = url;
    }
  });
});
