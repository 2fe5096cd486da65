import { Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { finishSubtask } from './engine.js';
import { endOperationIfComplete } from './operationEnd.js';
import { enqueueSubtasks } from './queue.js';
import { repairOperationCounts, repairTaskCounts } from './repairCounts.js';
import { type StoredSubtask, checkStore } from './store.js';
import { endTaskIfComplete } from './taskEnd.js';

const { Pending, Running } = RunStatus.values;

export interface ReapOptions {
  /** A subtask Running for longer lost its checker (crash, timeout, killed process) and is failed with a reason. */
  runningLimitMs: number;
  /** A Pending subtask of an open operation nobody claimed for longer lost its message and is sent again. */
  pendingLimitMs: number;
  /** Only pending subtasks created before this instant are sent again (a start: what was created since has its message). */
  createdBefore?: number;
  /** A subtask claimed before this instant lost its checker whatever its age (a start: no checker outlives the stack). */
  claimedBefore?: number;
  now?: number;
}

/**
 * The reaper, over every open operation: fails the subtasks whose checker died, sends again the work
 * whose message was lost, repairs task and operation counters that disagree with their children
 * (and logs it), and ends a task or an operation whose children have all ended but which is still
 * open. So nothing a crash leaves waits for an operator.
 */
export async function reapStuck(opts: ReapOptions): Promise<Reaped> {
  const total: Reaped = { failed: 0, requeued: 0, repaired: 0 };
  for (const op of await checkStore().operations.all({ scope: { open: 1 } })) {
    const one = await reapOperation(op.id, opts);
    total.failed += one.failed;
    total.requeued += one.requeued;
    total.repaired += one.repaired;
  }
  if (total.failed || total.requeued || total.repaired) logger.info('reaper', { ...total });
  return total;
}

export interface Reaped {
  failed: number;
  requeued: number;
  repaired: number;
}

/** The reaper's work on one open operation. */
export async function reapOperation(operationId: number, opts: ReapOptions): Promise<Reaped> {
  const now = opts.now ?? Date.now();
  let failed = 0;
  let repaired = 0;
  const requeue: StoredSubtask[] = [];
  const lost = (s: StoredSubtask) =>
    s.start_at !== null &&
    (now - s.start_at > opts.runningLimitMs || (opts.claimedBefore !== undefined && s.start_at < opts.claimedBefore));
  for (const task of await checkStore().tasks.all({ scope: { operation_id: operationId } })) {
    if (task.status === TaskStatus.values.Pause || task.status === TaskStatus.values.Done) continue;
    const list = await checkStore().subtasks.all({ scope: { task_id: task.id } });
    const loginPending = list.some(
      (s) => s.process === Process.values.Login && (s.status === Pending || s.status === Running),
    );
    for (const s of list) {
      if (s.status === Running && s.run_id && lost(s)) {
        const restarted = opts.claimedBefore !== undefined && s.start_at !== null && s.start_at < opts.claimedBefore;
        const ok = await finishSubtask(s, s.run_id, {
          success: false,
          msg: restarted
            ? 'The checker stopped answering: the stack was restarted while it ran'
            : `The checker stopped answering after ${Math.round((now - (s.start_at ?? now)) / 1000)} s (crashed or timed out)`,
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
    if (await repairTaskCounts(task.id, now)) repaired++;
    await endTaskIfComplete(task.id);
  }
  if (await repairOperationCounts(operationId, now)) repaired++;
  await endOperationIfComplete(operationId);
  await enqueueSubtasks(requeue);
  return { failed, requeued: requeue.length, repaired };
}
