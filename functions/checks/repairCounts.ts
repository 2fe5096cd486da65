import { TaskStatus } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { type Counts, countsDiffer, operationCountsOf, taskCountsOf } from './counts.js';
import { checkStore } from './store.js';

// The reaper's repair of progress counters that disagree with the children they count. Follow-ups
// keep them right through any crash; this finds what they cannot: rows from before them, or a
// counter moved by hand. The repair is safe beside follow-ups still in flight: it reads the parent
// (with the causes it has counted) before its children, sets the counters whole and marks every
// cause the children imply counted in the same write, which holds only if the parent changed in no
// way since it was read. So a child's count still on its way afterwards is refused as counted
// already, and one that landed meanwhile makes the repair fail (the next reaper run looks again).

/** A start writes an operation's tasks and subtasks for up to the API's timeout: not a disagreement yet. */
export const CREATE_GRACE_MS = 60_000;
/** A disagreement on a row written this recently may be follow-ups in flight, which settle it themselves. */
export const QUIET_MS = 10_000;

const COUNTERS = ['task_total', 'task_done', 'task_failed', 'task_running'] as const;
const countsOf = (row: Counts): Counts => Object.fromEntries(COUNTERS.map((k) => [k, row[k]])) as unknown as Counts;

/** Recounts a task from its subtasks when they disagree; true when it repaired it. */
export async function repairTaskCounts(taskId: number, now = Date.now()): Promise<boolean> {
  const { tasks, subtasks } = checkStore();
  const counted = await tasks.getCounted(taskId);
  if (!counted) return false;
  const { row: task, causes: seen } = counted;
  if (task.status === TaskStatus.values.Done || task.status === TaskStatus.values.Pause) return false;
  if (now - task.created_at < CREATE_GRACE_MS || now - (task.updated_at ?? task.created_at) < QUIET_MS) return false;
  // Listed from the index, read whole and consistent: the index may lag behind a status.
  const ids = (await subtasks.all({ scope: { task_id: task.id } })).map((s) => s.id);
  const want = taskCountsOf(await subtasks.getMany(ids));
  // A task's running count is derived when read (read.ts), never kept: the stored one is not compared.
  const { task_running: _running, ...kept } = want.counts;
  const patch = countsDiffer(task, { ...kept, task_running: task.task_running });
  if (!Object.keys(patch).length) return false;
  const known = new Set(seen);
  const repaired = await tasks.setCounts(task.id, patch, {
    expect: countsOf(task),
    causes: want.causes.filter((c) => !known.has(c)),
    seen: seen.length,
  });
  if (repaired)
    logger.warn('task counters disagreed with its subtasks; repaired', {
      task_id: task.id,
      operation_id: task.operation_id,
      was: countsOf(task),
      now: want.counts,
    });
  return repaired !== null;
}

/** Recounts an open operation from its tasks when they disagree; true when it repaired it. */
export async function repairOperationCounts(operationId: number, now = Date.now()): Promise<boolean> {
  const { operations, tasks } = checkStore();
  const counted = await operations.getCounted(operationId);
  if (counted?.row.open !== 1) return false;
  const { row: op, causes: seen } = counted;
  if (now - op.created_at < CREATE_GRACE_MS || now - (op.updated_at ?? op.created_at) < QUIET_MS) return false;
  const ids = (await tasks.all({ scope: { operation_id: op.id } })).map((t) => t.id);
  const want = operationCountsOf(await tasks.getMany(ids));
  const patch = countsDiffer(op, want.counts);
  if (!Object.keys(patch).length) return false;
  const known = new Set(seen);
  const repaired = await operations.setCounts(op.id, patch, {
    expect: countsOf(op),
    causes: want.causes.filter((c) => !known.has(c)),
    seen: seen.length,
  });
  if (repaired)
    logger.warn('operation counters disagreed with its tasks; repaired', {
      operation_id: op.id,
      was: countsOf(op),
      now: want.counts,
    });
  return repaired !== null;
}
