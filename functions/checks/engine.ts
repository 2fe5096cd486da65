import { NotificationCategory, Process, RunStatus, TaskStatus, TestMode } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { createNotification } from '../notifications/service.js';
import { siteRefs } from '../sites/service.js';
import { recordSubtaskRollup } from './checkRollup.js';
import { recordEvent } from './events.js';
import { enqueueSubtasks } from './queue.js';
import { type StoredOperation, type StoredSubtask, type StoredTask, checkStore } from './store.js';
import { recordMetric } from '../lib/metrics.js';

// The state machine of a check (docs/check-engine.md). Every transition is a single-item
// conditional write, so two deliveries of one message, or a checker and the reaper, can race
// and exactly one wins. Counters on tasks and operations move by atomic adds made only by
// the winner of the transition they count.

const { Pending, Running, Pause, Failed, Done } = RunStatus.values;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function siteName(siteId: number): Promise<string> {
  return (await siteRefs([siteId])).get(siteId)?.name ?? `site ${siteId}`;
}

/** Pending -> Running for one delivery; null when another delivery or a pause got there first. */
export async function claimSubtask(id: number, runId: string): Promise<StoredSubtask | null> {
  const claimed = await checkStore().subtasks.transition(
    id,
    { status: Running, run_id: runId, start_at: Date.now() },
    { status: Pending },
  );
  if (!claimed) return null;
  await checkStore().tasks.add(claimed.task_id, { task_running: 1 });
  const started = await checkStore().tasks.transition(
    claimed.task_id,
    { status: TaskStatus.values.Running, start_at: Date.now() },
    { status: TaskStatus.values.Pending },
  );
  if (started) {
    await checkStore().operations.add(started.operation_id, { task_running: 1 });
    await recordEvent('task_start', started.operation_id, `Task ${started.id} started`, { task_id: started.id });
  }
  await recordEvent(
    'subtask_start',
    claimed.operation_id,
    `Subtask ${claimed.id} ${Process.label(claimed.process)} (${TestMode.label(claimed.mode)}) started`,
    { task_id: claimed.task_id, subtask_id: claimed.id },
  );
  return claimed;
}

export interface SubtaskOutcome {
  success: boolean;
  msg: string;
  /** What the checker's attempts came to (runSubtask.ts); absent when it never ran one (reaper, missing site). */
  attempts?: number;
  flaky?: boolean;
  degraded?: boolean;
  duration_ms?: number;
}

/**
 * Running -> Done/Failed for the delivery that claimed it, then rolls the result up into the
 * task and the operation and writes their notifications once each.
 */
export async function finishSubtask(sub: StoredSubtask, runId: string, outcome: SubtaskOutcome): Promise<boolean> {
  const status = outcome.success ? Done : Failed;
  const { success: _s, ...fields } = outcome;
  const finished = await checkStore().subtasks.transition(
    sub.id,
    { status, ...fields, end_at: Date.now() },
    { status: Running, run_id: runId },
  );
  if (!finished) return false;
  if (!outcome.success) recordMetric('SubtasksFailed');
  // The dashboard's rollups; a lost write is put right by the repair (rebuildCheckRollups).
  await recordSubtaskRollup(finished).catch((error) =>
    logger.error('check rollup not written', { subtask_id: finished.id, error: error as Error }),
  );
  const task = await checkStore().tasks.add(sub.task_id, {
    task_running: -1,
    ...(outcome.success ? { task_done: 1 } : { task_failed: 1 }),
  });
  await afterSubtaskEnded(finished, task);
  return true;
}

async function afterSubtaskEnded(sub: StoredSubtask, task: StoredTask): Promise<void> {
  const ok = sub.status === Done;
  // The login's outcome decides first: the task's other subtasks wait on it, not on the records below.
  if (sub.process === Process.values.Login) {
    if (ok) {
      // The session is in place: the task's other subtasks may now run, in parallel.
      const rest = (await checkStore().subtasks.all({ scope: { task_id: sub.task_id } })).filter(
        (s) => s.status === Pending,
      );
      await enqueueSubtasks(rest);
    } else {
      task = (await failPendingSubtasks(sub.task_id, `Login failed: ${sub.msg}`)) ?? task;
    }
  }

  const name = await siteName(sub.site_id);
  const label = `${Process.label(sub.process)} (${TestMode.label(sub.mode)})`;
  await Promise.all([
    recordEvent('subtask_end', sub.operation_id, `Subtask ${sub.id} ${label} ${ok ? 'done' : 'failed'}: ${sub.msg}`, {
      task_id: sub.task_id,
      subtask_id: sub.id,
    }),
    // A flaky pass is told by its badge and the dashboard's flake rate, not by a message: it
    // passed, and a message per passing retry would teach operators to ignore them.
    !sub.flaky &&
      createNotification({
        category: NotificationCategory.values.Subtask,
        title: `${name}: ${label} ${ok ? 'Done' : 'Failed'}`,
        caption: `Subtask ${sub.id} of operation ${sub.operation_id}`,
        content: `<p>Site <b>${escapeHtml(name)}</b>, ${escapeHtml(label)}: <b>${ok ? 'Done' : 'Failed'}</b></p><p>${escapeHtml(sub.msg)}</p><p><a href="/operations/${sub.operation_id}">Operation ${sub.operation_id}</a></p>`,
        link: `/operations/${sub.operation_id}`,
      }),
  ]);
  await maybeFinishTask(task);
}

/** Marks every still-pending subtask of a task Failed (e.g. when its login failed). */
export async function failPendingSubtasks(taskId: number, msg: string): Promise<StoredTask | null> {
  const pending = (await checkStore().subtasks.all({ scope: { task_id: taskId } })).filter(
    (s) => s.status === Pending || s.status === Pause,
  );
  let failed = 0;
  for (const s of pending) {
    const done = await checkStore().subtasks.transition(
      s.id,
      { status: Failed, msg, end_at: Date.now() },
      { status: s.status },
    );
    if (done) failed++;
  }
  const { tasks } = checkStore();
  return failed ? tasks.add(taskId, { task_failed: failed }) : ((await tasks.get(taskId)) ?? null);
}

/** Closes the task when every subtask has ended; exactly one caller wins the close. */
async function maybeFinishTask(task: StoredTask): Promise<void> {
  if (task.task_done + task.task_failed < task.task_total) return;
  const closed = await checkStore().tasks.transition(
    task.id,
    { status: TaskStatus.values.Done, end_at: Date.now() },
    { status: task.status },
  );
  if (!closed || task.status === TaskStatus.values.Done) return;
  const name = await siteName(task.site_id);
  const failed = task.task_failed > 0;
  await recordEvent(
    'task_end',
    task.operation_id,
    `Task ${task.id} ended: ${task.task_failed} of ${task.task_total} failed`,
    {
      task_id: task.id,
    },
  );
  await createNotification({
    category: NotificationCategory.values.Task,
    title: `${name}: check ${failed ? 'finished with failures' : 'passed'}`,
    caption: `Task ${task.id} of operation ${task.operation_id}`,
    content: `<p>Site <b>${escapeHtml(name)}</b>: ${task.task_total - task.task_failed} passed, <b>${task.task_failed}</b> failed of ${task.task_total}.</p><p><a href="/operations/${task.operation_id}">Operation ${task.operation_id}</a></p>`,
    link: `/operations/${task.operation_id}`,
  });
  const wasRunning = task.status === TaskStatus.values.Running ? { task_running: -1 } : {};
  const op = await checkStore().operations.add(task.operation_id, {
    ...wasRunning,
    task_done: 1,
    ...(failed ? { task_failed: 1 } : {}),
  });
  await maybeFinishOperation(op);
}

async function maybeFinishOperation(op: StoredOperation): Promise<void> {
  if (op.task_done < op.task_total) return;
  const status = op.task_failed > 0 ? Failed : Done;
  const closed = await checkStore().operations.transition(
    op.id,
    { status, end_at: Date.now(), open: undefined },
    { open: 1 },
  );
  if (!closed) return;
  await recordEvent(
    'operation_end',
    op.id,
    `Operation ${op.id} ended: ${op.task_failed} of ${op.task_total} task(s) with failures`,
  );
  await createNotification({
    category: NotificationCategory.values.Operation,
    title: `Operation ${op.id} ${status === Done ? 'done' : 'finished with failures'}`,
    caption: `${op.task_total} site(s) checked`,
    content: `<p>Operation <b>${op.id}</b>: ${op.task_total - op.task_failed} site(s) passed, <b>${op.task_failed}</b> with failures.</p><p><a href="/operations/${op.id}">Open operation ${op.id}</a></p>`,
    link: `/operations/${op.id}`,
    from_user_id: op.operator_id,
    operation_id: op.id,
  });
}

// Pause and resume (spec section 4: action 1 pauses all pending tasks, 2 resumes all paused ones).

async function pauseTaskRows(task: StoredTask): Promise<boolean> {
  const paused = await checkStore().tasks.transition(
    task.id,
    { status: TaskStatus.values.Pause },
    { status: TaskStatus.values.Pending },
  );
  if (!paused) return false;
  for (const s of await checkStore().subtasks.all({ scope: { task_id: task.id } })) {
    if (s.status === Pending) await checkStore().subtasks.transition(s.id, { status: Pause }, { status: Pending });
  }
  return true;
}

async function resumeTaskRows(task: StoredTask): Promise<boolean> {
  const resumed = await checkStore().tasks.transition(
    task.id,
    { status: TaskStatus.values.Pending },
    { status: TaskStatus.values.Pause },
  );
  if (!resumed) return false;
  const back: StoredSubtask[] = [];
  for (const s of await checkStore().subtasks.all({ scope: { task_id: task.id } })) {
    if (s.status !== Pause) continue;
    const row = await checkStore().subtasks.transition(s.id, { status: Pending }, { status: Pause });
    if (row) back.push(row);
  }
  // Same order as a fresh start: login first if it has not run yet.
  const login = back.find((s) => s.process === Process.values.Login);
  await enqueueSubtasks(login ? [login] : back);
  return true;
}

export async function pauseOperation(op: StoredOperation): Promise<number> {
  let count = 0;
  for (const t of await checkStore().tasks.all({ scope: { operation_id: op.id } })) if (await pauseTaskRows(t)) count++;
  await checkStore().operations.transition(op.id, { status: Pause }, { status: Running });
  return count;
}

export async function resumeOperation(op: StoredOperation): Promise<number> {
  let count = 0;
  await checkStore().operations.transition(op.id, { status: Running }, { status: Pause });
  for (const t of await checkStore().tasks.all({ scope: { operation_id: op.id } }))
    if (await resumeTaskRows(t)) count++;
  return count;
}

export async function pauseTask(task: StoredTask): Promise<boolean> {
  return pauseTaskRows(task);
}

export async function resumeTask(task: StoredTask): Promise<boolean> {
  return resumeTaskRows(task);
}

/**
 * The reaper: a subtask Running for longer than `runningLimitMs` lost its checker (crash,
 * timeout, killed process) and is failed with a reason; a Pending one of an open operation
 * that nobody claimed for `pendingLimitMs` lost its message (the local queue keeps nothing
 * across a restart) and is enqueued again; `createdBefore` keeps that to subtasks created before a
 * given instant (a start: what was created since has its message).
 */
export async function reapStuck(opts: {
  runningLimitMs: number;
  pendingLimitMs: number;
  createdBefore?: number;
  now?: number;
}): Promise<{
  failed: number;
  requeued: number;
}> {
  const now = opts.now ?? Date.now();
  let failed = 0;
  const requeue: StoredSubtask[] = [];
  for (const op of await checkStore().operations.all({ scope: { open: 1 } })) {
    for (const task of await checkStore().tasks.all({ scope: { operation_id: op.id } })) {
      if (task.status === TaskStatus.values.Pause || task.status === TaskStatus.values.Done) continue;
      const list = await checkStore().subtasks.all({ scope: { task_id: task.id } });
      const loginPending = list.some(
        (s) => s.process === Process.values.Login && (s.status === Pending || s.status === Running),
      );
      for (const s of list) {
        if (s.status === Running && s.start_at !== null && now - s.start_at > opts.runningLimitMs && s.run_id) {
          const ok = await finishSubtask(s, s.run_id, {
            success: false,
            msg: `The checker stopped answering after ${Math.round((now - s.start_at) / 1000)} s (crashed or timed out)`,
          });
          if (ok) failed++;
        } else if (
          s.status === Pending &&
          now - s.created_at > opts.pendingLimitMs &&
          (opts.createdBefore === undefined || s.created_at < opts.createdBefore) &&
          (s.process === Process.values.Login || !loginPending)
        ) {
          requeue.push(s);
        }
      }
    }
  }
  await enqueueSubtasks(requeue);
  if (failed || requeue.length) logger.info('reaper', { failed, requeued: requeue.length });
  return { failed, requeued: requeue.length };
}

/** Repair path for the task counters: recomputes them from the subtasks. */
export async function recountTask(taskId: number): Promise<StoredTask | undefined> {
  const list = await checkStore().subtasks.all({ scope: { task_id: taskId } });
  const counts = {
    task_total: list.length,
    task_done: list.filter((s) => s.status === Done).length,
    task_failed: list.filter((s) => s.status === Failed).length,
    task_running: list.filter((s) => s.status === Running).length,
  };
  return checkStore().tasks.update(taskId, counts);
}
