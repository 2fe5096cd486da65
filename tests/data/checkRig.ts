// The check engine on the engine under test, without a browser: checks written as startCheck writes
// them, subtasks "run" by claiming and finishing them, recovery as the product does it (the
// follow-up sweeper, then the reaper with a clock moved past its limits), and the invariants a
// finished check must hold. The local SQS (fauxqs) runs in this process for the check and notify
// queues. Used by checkCrash.test.ts.

import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect } from 'vitest';
import { NotificationCategory, NotifyStatus, Process, RunStatus, TaskStatus, TestMode } from '../../shared/enums.js';
import type { ProcessValue } from '../../shared/schemas/checks.js';
import { resetClients } from '../../functions/lib/aws/clients.js';
import { sweepFollowUps } from '../../functions/lib/db/outbox.js';
import { OUTBOX_INDEX } from '../../functions/lib/db/tableSchema.js';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { QUEUES } from '../../functions/registry.js';
import { invalidateSystemConfig } from '../../functions/systemConfig/getSystemConfig.js';
import { readSystemConfigState } from '../../functions/systemConfig/service.js';
import { systemConfigStore } from '../../functions/systemConfig/store.js';
import { notificationEntity } from '../../functions/notifications/store.js';
import { telegramSettingsStore, UNKNOWN_CHANNEL } from '../../functions/notifications/telegram/settingsStore.js';
import { operationCountsOf, taskCountsOf } from '../../functions/checks/counts.js';
import { countsInRollups, readCheckTimings } from '../../functions/checks/checkRollup.js';
import { claimSubtask, finishSubtask } from '../../functions/checks/engine.js';
import { pendingSubtask } from '../../functions/checks/pendingSubtask.js';
import { incidentEntity, incidentStore } from '../../functions/incidents/store.js';
import { reapOperation } from '../../functions/checks/reapStuck.js';
import { PENDING_LIMIT_MS, RUNNING_LIMIT_MS } from '../../functions/checks/reaper.js';
import { type StoredOperation, type StoredSubtask, type StoredTask, checkStore } from '../../functions/checks/store.js';
import { type SqsEngine, startSqs } from '../../scripts/local/engines/sqs.js';

const { Pending, Running, Done, Failed } = RunStatus.values;
const REGION = 'us-east-1';

let engine: SqsEngine | undefined;
let sqs: SQSClient;
const queueUrl = (name: string) => engine!.queues.find((q) => q.name === name)!.url;

/** fauxqs for the check and notify queues, and Telegram settings that send every operation's summary. */
export function setupQueues(): void {
  beforeAll(async () => {
    engine = await startSqs({ queues: QUEUES, region: REGION });
    process.env.SQS_ENDPOINT = engine.endpoint;
    for (const q of engine.queues) process.env[`${q.name.toUpperCase()}_QUEUE_URL`] = q.url;
    sqs = new SQSClient({
      region: REGION,
      endpoint: engine.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    resetClients();
    // The summary's delivery is part of every operation's end (docs/notifications.md): a chat is set.
    await telegramSettingsStore().save({
      bot_token_enc: null,
      bot_token_hint: '12***yz',
      check_chat_id: '-1001234567890',
      bank_chat_id: '',
      check_enabled: true,
      bank_enabled: false,
      per_subtask: false,
      check_channel: UNKNOWN_CHANNEL,
      bank_channel: UNKNOWN_CHANNEL,
      updated_at: null,
      updated_by: null,
    });
  });
  afterAll(async () => {
    sqs?.destroy();
    await engine?.stop();
  });
}

/**
 * Incident grouping off for a walk of the engine's own sequences. Each crash point runs a check of
 * its own whose failures stay open, so with grouping on every point after the third joined one
 * parent and timed the walk by grouping's writes, not the engine's; grouping's sequences have a walk
 * of their own (incidentGroupingCrash.test.ts).
 */
export function withoutIncidentGrouping(): void {
  beforeAll(async () => {
    const { document } = await readSystemConfigState();
    await systemConfigStore().save(
      {
        document: { ...document, alerts: { ...document.alerts, correlate_min_sites: 0 } },
        changes: [],
        by: { id: 0, nickname: 'test' },
      },
      (await readSystemConfigState()).version,
    );
    invalidateSystemConfig();
  });
}

type Message = Record<string, number>;
const mailbox: Record<'check' | 'notify', Message[]> = { check: [], notify: [] };

/**
 * Every message sent to a queue so far (scenarios run side by side share the queues: each looks
 * for its own ids). Nothing consumes them: the tests run the subtasks themselves.
 */
export async function sent(name: 'check' | 'notify'): Promise<Message[]> {
  for (;;) {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl(name), MaxNumberOfMessages: 10 }));
    if (!res.Messages?.length) return mailbox[name];
    mailbox[name].push(...res.Messages.map((m) => JSON.parse(m.Body ?? '{}') as Message));
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl(name),
        Entries: res.Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
      }),
    );
  }
}

export interface Check {
  op: StoredOperation;
  tasks: { task: StoredTask; subs: StoredSubtask[] }[];
}

/** An operation with one task per entry, each with a subtask per process (D4), as startCheck writes it. */
export async function newCheck(plan: ProcessValue[][]): Promise<Check> {
  const { operations, tasks, subtasks } = checkStore();
  const op = await operations.create({
    name: 2,
    status: Running,
    operator_id: null,
    site_id: null,
    rule_id: null,
    task_total: plan.length,
    task_done: 0,
    task_failed: 0,
    task_running: 0,
    open: 1,
    start_at: Date.now(),
    end_at: null,
    remark: '',
  });
  const out: Check = { op, tasks: [] };
  for (const [i, processes] of plan.entries()) {
    const task = await tasks.create({
      operation_id: op.id,
      // A site of its own per check: the dashboard's rollups are per site.
      site_id: op.id * 10 + i,
      account_id: null,
      checkpoints: { points: processes.map((process) => ({ process, modes: [TestMode.values.D4] })) },
      status: TaskStatus.values.Pending,
      creator_id: null,
      task_total: processes.length,
      task_done: 0,
      task_failed: 0,
      task_running: 0,
      session_id: null,
      start_at: null,
      end_at: null,
      remark: '',
    });
    const subs = await subtasks.createMany(
      processes.map((process) =>
        pendingSubtask({
          task_id: task.id,
          operation_id: op.id,
          site_id: task.site_id,
          mode: TestMode.values.D4,
          process,
        }),
      ),
    );
    out.tasks.push({ task, subs });
  }
  return out;
}

let runs = 0;

/** A checker's claim, with the subtask's fields its message carries: the subtask as it runs, or null. */
export const claim = (sub: StoredSubtask) => claimSubtask(sub.id, `run-${++runs}`, sub);

/** A checker's whole run of one subtask, with the given outcome. */
export async function run(sub: StoredSubtask, success = true): Promise<void> {
  const claimed = await claim(sub);
  if (claimed) await finishSubtask(claimed, claimed.run_id as string, { success, msg: success ? 'ok' : 'broken' });
}

/**
 * What the product does after a crash, in the order it does it: the follow-up sweeper applies what
 * the dead writer left, then the reaper (its clock past every limit) fails the subtasks the dead
 * checker held, sends again what lost its message and repairs what still disagrees. Answers how
 * many counters the reaper had to repair: none, when the follow-ups did their work.
 */
export async function recover(opId: number): Promise<number> {
  await sweepFollowUps({ before: Date.now() + 1 });
  const later = Date.now() + Math.max(RUNNING_LIMIT_MS, PENDING_LIMIT_MS) + 60_000;
  const { repaired } = await reapOperation(opId, {
    runningLimitMs: RUNNING_LIMIT_MS,
    pendingLimitMs: PENDING_LIMIT_MS,
    now: later,
  });
  return repaired;
}

/** Runs every pending subtask of the operation as the queue would: a task's login first. */
export async function runToEnd(opId: number): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const subs = await checkStore().subtasks.all({ scope: { operation_id: opId } });
    const tasks = new Map((await checkStore().tasks.all({ scope: { operation_id: opId } })).map((t) => [t.id, t]));
    const runnable = subs.filter(
      (s) => s.status === Pending && tasks.get(s.task_id)?.status !== TaskStatus.values.Pause,
    );
    if (!runnable.length) return;
    const loginFirst = runnable.filter(
      (s) =>
        s.process === Process.values.Login ||
        !subs.some((l) => l.task_id === s.task_id && l.process === Process.values.Login && l.status === Pending),
    );
    for (const s of loginFirst) await run(s);
  }
  throw new Error(`operation ${opId} never ran out of pending subtasks`);
}

const count = <T>(list: T[], where: (x: T) => boolean) => list.filter(where).length;

/** The rows with follow-ups still pending, by key (the sweeper's index). */
async function pendingFollowUps(): Promise<string[]> {
  const out = await dynamoClient().send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      IndexName: OUTBOX_INDEX.name,
      KeyConditionExpression: '#p = :p',
      ExpressionAttributeNames: { '#p': OUTBOX_INDEX.partitionKey },
      ExpressionAttributeValues: { ':p': 'outbox' },
    }),
  );
  return (out.Items ?? []).map((i) => i.pk as string);
}

/**
 * What every finished check holds, whatever crashed on the way: every subtask final, every task
 * Done with its counters equal to its subtasks', the operation closed with its counters equal to
 * its tasks', each record and notification exactly once, each failure on its incident once, the
 * summary's delivery sent unless its incidents' messages tell of it, and no follow-up left anywhere.
 */
export async function expectSettled(opId: number, since: number, context: string, crashed = false): Promise<void> {
  const { operations, tasks, subtasks, engineEvents } = checkStore();
  const op = (await operations.get(opId)) as StoredOperation;
  const taskRows = await tasks.getMany((await tasks.all({ scope: { operation_id: opId } })).map((t) => t.id));
  const subs = await subtasks.getMany((await subtasks.all({ scope: { operation_id: opId } })).map((s) => s.id));
  const at = (what: string) => `${context}: ${what}`;

  expect(
    subs.filter((s) => s.status !== Done && s.status !== Failed).map((s) => s.id),
    at('subtasks not final'),
  ).toEqual([]);
  for (const task of taskRows) {
    const mine = subs.filter((s) => s.task_id === task.id);
    expect(task.status, at(`task ${task.id} status`)).toBe(TaskStatus.values.Done);
    expect(
      {
        task_total: task.task_total,
        task_done: task.task_done,
        task_failed: task.task_failed,
        task_running: task.task_running,
      },
      at(`task ${task.id} counters`),
    ).toEqual(taskCountsOf(mine).counts);
  }
  expect(op.open, at('operation still open')).toBeUndefined();
  expect(op.status, at('operation status')).toBe(taskRows.some((t) => t.task_failed > 0) ? Failed : Done);
  expect(
    { task_total: op.task_total, task_done: op.task_done, task_failed: op.task_failed, task_running: op.task_running },
    at('operation counters'),
  ).toEqual(operationCountsOf(taskRows).counts);

  const events = await engineEvents.all({ scope: { operation_id: opId } });
  const claimed = subs.filter((s) => s.run_id !== undefined);
  for (const s of claimed) {
    expect(
      count(events, (e) => e.action === 'subtask_start' && e.subtask_id === s.id),
      at(`subtask_start of ${s.id}`),
    ).toBe(1);
    expect(
      count(events, (e) => e.action === 'subtask_end' && e.subtask_id === s.id),
      at(`subtask_end of ${s.id}`),
    ).toBe(1);
  }
  for (const t of taskRows) {
    expect(
      count(events, (e) => e.action === 'task_start' && e.task_id === t.id),
      at(`task_start of ${t.id}`),
    ).toBe(t.start_at === null ? 0 : 1);
    expect(
      count(events, (e) => e.action === 'task_end' && e.task_id === t.id),
      at(`task_end of ${t.id}`),
    ).toBe(1);
  }
  expect(
    count(events, (e) => e.action === 'operation_end'),
    at('operation_end'),
  ).toBe(1);

  // The dashboard's day rollups count each subtask that ran exactly once, whatever a crash cut (its
  // ADD is guarded by the subtask's id in the item's own set).
  for (const site of new Set(taskRows.map((t) => t.site_id))) {
    const { points } = await readCheckTimings(site, 2);
    const runs = points.reduce((n, p) => n + p.runs, 0);
    const want = subs.filter((s) => s.site_id === site && countsInRollups(s)).length;
    expect(runs, at(`rollup runs of site ${site}`)).toBe(want);
  }

  // The notifications written since the scenario began (a key range), theirs among them by caption.
  const notes = (
    await createRepository(notificationEntity).list(
      emptyListQuery({ page_size: 0, filters: { created_at: { kind: 'range', start: since } } }),
    )
  ).result;
  for (const s of claimed)
    expect(
      count(notes, (n) => n.caption === `Subtask ${s.id} of operation ${opId}`),
      at(`notification of subtask ${s.id}`),
    ).toBe(1);
  for (const t of taskRows)
    expect(
      count(notes, (n) => n.caption === `Task ${t.id} of operation ${opId}`),
      at(`notification of task ${t.id}`),
    ).toBe(1);
  const summary = notes.filter((n) => n.category === NotificationCategory.values.Operation && n.operation_id === opId);
  expect(summary, at('operation notification')).toHaveLength(1);
  const notify = await sent('notify');

  // Each failure the checker (or the reaper) ended is on its (site, process, mode)'s incident once,
  // in its timeline once, and that incident's message is synced (docs/incidents.md). A subtask failed
  // with its login never ran: it reaches none.
  const failedEnds = claimed.filter((s) => s.status === Failed);
  for (const key of new Set(failedEnds.map((s) => `${s.site_id}:${s.process}:${s.mode}`))) {
    const id = await incidentStore().openId(key);
    expect(id, at(`incident of ${key}`)).toBeDefined();
    const incident = await incidentStore().get(id!);
    const mine = failedEnds.filter((s) => `${s.site_id}:${s.process}:${s.mode}` === key);
    expect(incident?.failures, at(`failures on incident of ${key}`)).toBe(mine.length);
    // Each count's guard was dropped once its timeline entry marked it: the row does not grow with failures.
    expect((await createRepository(incidentEntity).getCounted(id!))?.causes, at(`guards left on ${key}`)).toEqual([]);
    const timeline = await incidentStore().events(id!);
    for (const s of mine)
      expect(
        count(timeline, (e) => e.subtask_id === s.id),
        at(`timeline entry of subtask ${s.id}`),
      ).toBe(1);
    expect(
      notify.some((m) => m.incident_id === id),
      at(`sync of incident ${id}`),
    ).toBe(true);
  }
  // The summary goes to the chat for an operation no incident told of. Told of one, it stays off:
  // unless a crash held the incident back until after another task closed the operation.
  const toldByIncidents = failedEnds.length > 0;
  const summaryStatus = summary[0].status_tg;
  if (toldByIncidents && !crashed) expect(summaryStatus, at('summary to Telegram')).toBe(NotifyStatus.values.NoNeed);
  else if (!toldByIncidents) expect(summaryStatus, at('summary to Telegram')).toBe(NotifyStatus.values.Pending);
  if (summaryStatus === NotifyStatus.values.Pending) {
    const deliveries = notify.filter((m) => m.notification_id === summary[0].id);
    expect(deliveries.length, at('summary delivery enqueued')).toBeGreaterThanOrEqual(1);
  }

  const mine = new Set([
    `operation#${opId}`,
    ...taskRows.map((t) => `task#${t.id}`),
    ...subs.map((s) => `subtask#${s.id}`),
  ]);
  expect(
    (await pendingFollowUps()).filter((pk) => mine.has(pk)),
    at('follow-ups left'),
  ).toEqual([]);
}
