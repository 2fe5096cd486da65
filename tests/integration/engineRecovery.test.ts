import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { startupEvent } from '../../functions/lib/startupEvent.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';

// Crash, duplicate delivery and pause/resume. The engine's own functions run in this test
// process against the stack's engines, with the check queue pointed at a queue of the test's
// own, so the test decides when (and how often) each message is delivered.

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;

const get = (path: string) => client.get(`/api/v1${path}`, { token });
const post = (path: string, body: unknown) => client.post(`/api/v1${path}`, { token, body });

let sqs: SQSClient;
let sinkUrl: string;
let engine: typeof import('../../functions/checks/engine.js');
let reaper: typeof import('../../functions/checks/reapStuck.js');
let start: typeof import('../../functions/checks/start.js');
let runner: typeof import('../../functions/checks/runSubtask.js');
let browser: typeof import('../../functions/checks/browser/browserPool.js');
let requeueAtStart: typeof import('../../functions/checks/requeue.js');

async function newSandboxSite() {
  const res = await post('/sites', {
    name: uniqueName('Recovery '),
    url: stack.env.SANDBOX_SITE_URL,
    accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
  });
  return res.body.data as { id: number };
}

/** Browser contexts of the checker's Chromium besides its default one (each check opens one). */
async function openContexts(): Promise<number> {
  return (await browser.getBrowser()).browserContexts().length - 1;
}

async function drainSink(): Promise<{ subtask_id: number; operation_id: number }[]> {
  const out: { subtask_id: number; operation_id: number }[] = [];
  for (;;) {
    const res = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: sinkUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    if (!res.Messages?.length) return out;
    out.push(...res.Messages.map((m) => JSON.parse(m.Body ?? '{}')));
  }
}

/**
 * The sink's messages of one operation. The sink also holds what this process sent for other checks
 * on the shared stack (a requeue at start sends every pending subtask; a loaded run once had a third
 * message in the pause test's first wave).
 */
async function drainSinkOf(operationId: number): Promise<{ subtask_id: number; operation_id: number }[]> {
  return (await drainSink()).filter((m) => m.operation_id === operationId);
}

beforeAll(async () => {
  token = await k.admin();
  Object.assign(process.env, stack.env);
  sqs = new SQSClient({ region: stack.env.AWS_REGION, endpoint: stack.env.SQS_ENDPOINT });
  const sink = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('test-sink-') }));
  sinkUrl = sink.QueueUrl!;
  process.env.CHECK_QUEUE_URL = sinkUrl;
  const clients = await import('../../functions/lib/aws/clients.js');
  clients.resetClients();
  engine = await import('../../functions/checks/engine.js');
  reaper = await import('../../functions/checks/reapStuck.js');
  start = await import('../../functions/checks/start.js');
  runner = await import('../../functions/checks/runSubtask.js');
  browser = await import('../../functions/checks/browser/browserPool.js');
  requeueAtStart = await import('../../functions/checks/requeue.js');
});

afterAll(async () => {
  await browser?.closeBrowser();
  sqs?.destroy();
  await k.destroy();
});

describe('a checker that dies', () => {
  it('does not leave its subtask Running: the reaper fails it with the reason', async () => {
    const site = await newSandboxSite();
    const op = await start.startCheck({
      siteIds: [site.id],
      points: [{ point: 8, modes: [1] }],
      name: 1,
      operatorId: null,
    });
    const [message] = await drainSinkOf(op.id);

    // A delivery claims the subtask and then its process is killed: nothing ever finishes it.
    const claimed = await engine.claimSubtask(message.subtask_id, 'killed-delivery');
    expect(claimed?.status).toBe(RunStatus.values.Running);

    const reaped = await reaper.reapStuck({ runningLimitMs: 0, pendingLimitMs: Number.POSITIVE_INFINITY });
    expect(reaped.failed).toBeGreaterThanOrEqual(1);

    const subtask = (await get(`/check/subtasks?operation_id==-${op.id}`)).body.data.result[0];
    expect(subtask).toMatchObject({
      status: RunStatus.values.Failed,
      msg: expect.stringContaining('stopped answering'),
    });
    expect((await get(`/operations/${op.id}`)).body.data.status).toBe(RunStatus.values.Failed);

    // The message comes back after its visibility timeout; that late delivery changes nothing.
    await runner.runSubtask(message, 'late-redelivery');
    expect((await get(`/check/subtasks/${subtask.id}/check-results`)).body.data).toHaveLength(0);
  });
});

describe('a message delivered twice', () => {
  it('runs the check once and keeps one result', async () => {
    const site = await newSandboxSite();
    const op = await start.startCheck({
      siteIds: [site.id],
      points: [{ point: 8, modes: [1] }],
      name: 1,
      operatorId: null,
    });
    const [message] = await drainSinkOf(op.id);

    await Promise.all([runner.runSubtask(message, 'delivery-1'), runner.runSubtask(message, 'delivery-2')]);
    // Both opened a browser context beside their claims; the one refused closed its own unused.
    expect(await openContexts()).toBe(0);

    const results = await get(`/check/subtasks/${message.subtask_id}/check-results`);
    expect(results.body.data).toHaveLength(1);
    /** A list's rows of this subtask. */
    const rowsOfSubtask = async (list: string) =>
      (await get(`${list}?page_size=0`)).body.data.result.filter(
        (row: { subtask_id: number }) => row.subtask_id === message.subtask_id,
      );
    expect(await rowsOfSubtask('/check/results/agent-setting')).toHaveLength(1);
    // The refused delivery's browser waited for its claim and touched nothing: one raw log, one video.
    expect(await rowsOfSubtask('/raw/logs')).toHaveLength(1);
    expect(await rowsOfSubtask('/raw/videos')).toHaveLength(1);
    // The end's follow-ups are the stack's follow-up applier's (handed off): the operation ends soon after.
    const detail = await until(
      'the operation to end',
      async () => (await get(`/operations/${op.id}/tasks`)).body.data,
      (d) => d.operation.status !== RunStatus.values.Running,
    );
    expect(detail.operation).toMatchObject({ status: RunStatus.values.Done, task_done: 1 });
    expect(detail.tasks[0]).toMatchObject({ task_total: 1, task_done: 1, task_failed: 0, task_running: 0 });
  });
});

describe('a start of the stack', () => {
  it('enqueues again the pending subtasks created before it began, not the ones created since', async () => {
    const site = await newSandboxSite();
    const before = Date.now() - 1;
    const op = await start.startCheck({
      siteIds: [site.id],
      points: [{ point: 8, modes: [1] }],
      name: 1,
      operatorId: null,
    });
    const created = await drainSinkOf(op.id);
    expect(created).toHaveLength(1);
    const ofThisCheck = () => drainSinkOf(op.id);

    // A start that began before the check: the check's message was sent after it, nothing to send again.
    await requeueAtStart.handler(startupEvent(before));
    expect(await ofThisCheck()).toEqual([]);

    // A start that began after it (the queue engine lost the message in the restart): sent again, once.
    await requeueAtStart.handler(startupEvent(Date.now() + 1));
    expect(await ofThisCheck()).toEqual(created);

    // Nothing runs it here: paused, so the stack's reaper leaves it alone too.
    expect((await post(`/operations/${op.id}/action`, { action: 1 })).status).toBe(200);
  });
});

describe('pause and resume', () => {
  it('pauses the pending tasks, runs nothing of them, and resumes them to the end', async () => {
    const siteIds = [(await newSandboxSite()).id, (await newSandboxSite()).id];
    const op = await start.startCheck({
      siteIds,
      points: [
        { point: 1, modes: [1] },
        { point: 8, modes: [1, 3] },
      ],
      name: 2,
      operatorId: null,
    });
    const firstWave = await drainSinkOf(op.id);
    expect(firstWave).toHaveLength(2); // one login per task

    const paused = await post(`/operations/${op.id}/action`, { action: 1 });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ changed: 2, operation: { status: RunStatus.values.Pause } });
    const tasks = (await get(`/operations/${op.id}/tasks`)).body.data.tasks;
    expect(tasks.map((t: { status: number }) => t.status)).toEqual([3, 3]);

    // The queued logins arrive while paused: they are dropped, not run.
    for (const m of firstWave) await runner.runSubtask(m, `while-paused-${m.subtask_id}`);
    const subs = (await get(`/check/subtasks?operation_id==-${op.id}&page_size=0`)).body.data.result;
    expect(subs.every((s: { status: number }) => s.status === RunStatus.values.Pause)).toBe(true);

    const resumed = await post(`/operations/${op.id}/action`, { action: 2 });
    expect(resumed.body.data).toMatchObject({ changed: 2, operation: { status: RunStatus.values.Running } });

    // The API enqueued the resumed work on the stack's own queue: its checker runs it to the end.
    let detail = (await get(`/operations/${op.id}/tasks`)).body.data;
    for (
      const deadline = Date.now() + 90_000;
      detail.operation.status === RunStatus.values.Running && Date.now() < deadline;
    ) {
      await new Promise((r) => setTimeout(r, 500));
      detail = (await get(`/operations/${op.id}/tasks`)).body.data;
    }
    expect(detail.operation).toMatchObject({ status: RunStatus.values.Done, task_done: 2, task_failed: 0 });
    expect(detail.tasks.every((t: { task_done: number }) => t.task_done === 3)).toBe(true);
  });

  it('answers 400 for an unknown action and 404 for an unknown operation', async () => {
    expect((await post('/operations/1/action', { action: 3 })).status).toBe(400);
    expect((await post('/operations/999999/action', { action: 1 })).status).toBe(404);
  });
});
