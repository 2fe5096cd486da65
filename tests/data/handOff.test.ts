import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetClients } from '../../functions/lib/aws/clients.js';
import { handler as applierHandler } from '../../functions/data/followUpApply.js';
import { defineFollowUp, sweepFollowUps } from '../../functions/lib/db/outbox.js';
import { QUEUES } from '../../functions/registry.js';
import { type SqsEngine, startSqs } from '../../scripts/local/engines/sqs.js';
import { sqsEvent } from '../../scripts/local/events.js';
import { transition } from '../../functions/lib/db/transition.js';
import { setupDynamo } from './engine.js';
import { base, bump, childMovedWith, pendingOf, repo } from './followUpRig.js';

// Follow-ups handed to their own consumer (functions/lib/db/handOff.ts) on the engine under test and
// the local SQS: the writer answers once its row is written and the row's key is on the `followUp`
// queue; the applier (functions/data/followUpApply.ts) applies them once; whatever the message does
// not bring about, the sweeper does.

setupDynamo();
const REGION = 'us-east-1';
let engine: SqsEngine;
let sqs: SQSClient;
const queue = () => engine.queues.find((q) => q.name === 'followUp')!;

beforeAll(async () => {
  engine = await startSqs({ queues: QUEUES, region: REGION });
  process.env.SQS_ENDPOINT = engine.endpoint;
  sqs = new SQSClient({
    region: REGION,
    endpoint: engine.endpoint,
    credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
  });
});
beforeEach(() => {
  process.env.FOLLOWUP_QUEUE_URL = queue().url;
  resetClients();
});
afterAll(async () => {
  sqs?.destroy();
  await engine?.stop();
});

let failures = 0;
const failsWhileAsked = defineFollowUp('test.handoff_fails', async () => {
  if (failures > 0) {
    failures--;
    throw new Error('the step failed this time');
  }
});

/** What the follow-up queue holds now (received, so a second call sees only newer messages). */
const received = async () =>
  (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue().url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 })))
    .Messages ?? [];
const apply = async (messages: Awaited<ReturnType<typeof received>>) =>
  applierHandler(sqsEvent(messages, queue().arn, REGION));

describe('follow-ups handed off', () => {
  it('leave the writer once the row is written and its key is queued; the applier applies them once, and again changes nothing', async () => {
    const parent = await repo.create(base);
    const child = await repo.create(base);
    await transition(
      repo,
      child.id,
      { status: 2 },
      { expect: { status: 1 }, followUps: [bump({ id: parent.id, cause: 'end' })], handOff: true },
    );

    expect((await repo.get(child.id))?.status).toBe(2);
    expect((await repo.get(parent.id))?.hits).toBeUndefined();
    expect(await pendingOf(child.id)).toHaveLength(1);
    const messages = await received();
    expect(messages.map((m) => JSON.parse(m.Body ?? ''))).toEqual([{ pk: `sample#${child.id}`, sk: 'item' }]);

    expect(await apply(messages)).toEqual({ batchItemFailures: [] });
    expect((await repo.get(parent.id))?.hits).toBe(1);
    expect(await pendingOf(child.id)).toEqual([]);
    // A second delivery of the same message (SQS is at least once).
    expect(await apply(messages)).toEqual({ batchItemFailures: [] });
    expect((await repo.get(parent.id))?.hits).toBe(1);
  });

  it('stay on the row for the sweeper when the queue cannot take the key, and the write still answers', async () => {
    process.env.FOLLOWUP_QUEUE_URL = `${queue().url}-missing`;
    resetClients();
    const { parent, child } = await childMovedWith((id) => [bump({ id, cause: 'lost' })], { handOff: true });

    expect((await repo.get(child.id))?.status).toBe(2);
    expect(await pendingOf(child.id)).toHaveLength(1);
    await sweepFollowUps({ before: Date.now() + 1 });
    expect((await repo.get(parent.id))?.hits).toBe(1);
    expect(await pendingOf(child.id)).toEqual([]);
  });

  it('keep an entry whose step fails in the applier, without failing the message back to the queue; the sweeper completes it, each step once', async () => {
    failures = 1;
    const { parent, child } = await childMovedWith((id) => [bump({ id, cause: 'half' }), failsWhileAsked({})], {
      handOff: true,
    });

    expect(await apply(await received())).toEqual({ batchItemFailures: [] });
    expect((await repo.get(parent.id))?.hits).toBe(1);
    expect(await pendingOf(child.id)).toHaveLength(1);
    await sweepFollowUps({ before: Date.now() + 1 });
    expect(await pendingOf(child.id)).toEqual([]);
    expect((await repo.get(parent.id))?.hits).toBe(1);
  });
});
