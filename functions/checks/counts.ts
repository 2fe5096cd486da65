import { RunStatus, TaskStatus } from '../../shared/enums.js';
import { defineFollowUp, type FollowUpContext } from '../lib/db/outbox.js';
import { type StoredSubtask, type StoredTask, checkStore } from './store.js';

// The progress counters of a task (over its subtasks) and of an operation (over its tasks), and the
// causes that move them. Each child transition moves its parent's counters once, by a follow-up
// keyed by its cause (`subtask_end:42`), so a follow-up applied again never counts twice; and the
// causes a set of children implies are known, so a repair can set counters whole without racing the
// follow-ups still in flight (repairCounts.ts).

export type Counts = Pick<StoredTask, 'task_total' | 'task_done' | 'task_failed' | 'task_running'>;
type Deltas = Partial<Record<keyof Counts, number>>;

const { Running, Done, Failed } = RunStatus.values;

/** What each child transition counts on its parent, by name. */
export const cause = {
  subtaskEnd: (id: number) => `subtask_end:${id}`,
  taskStart: (id: number) => `task_start:${id}`,
  taskEnd: (id: number) => `task_end:${id}`,
};

/** Moves a task's counters once for `cause`. */
export const countOnTask = defineFollowUp(
  'check.task_count',
  async ({ task_id, cause, deltas }: { task_id: number; cause: string; deltas: Deltas }, context?: FollowUpContext) => {
    const task = await checkStore().tasks.addOnce(task_id, deltas, cause);
    // The task as this count left it: the end's last stage asks whether it is complete (taskEnd.ts).
    context?.known?.set(knownTask(task_id), task);
    return task;
  },
);

/** Where a step leaves the task row it wrote for a later step of the same entry (FollowUpContext.known). */
export const knownTask = (id: number) => `task#${id}`;

/** Moves an operation's counters once for `cause`. */
export const countOnOperation = defineFollowUp(
  'check.operation_count',
  ({ operation_id, cause, deltas }: { operation_id: number; cause: string; deltas: Deltas }) =>
    checkStore().operations.addOnce(operation_id, deltas, cause),
);

const ended = (s: StoredSubtask) => s.status === Done || s.status === Failed;

/** A task's counters as its subtasks say, and the causes their transitions have counted (or will). */
export function taskCountsOf(subtasks: StoredSubtask[]): { counts: Counts; causes: string[] } {
  return {
    counts: {
      task_total: subtasks.length,
      task_done: subtasks.filter((s) => s.status === Done).length,
      task_failed: subtasks.filter((s) => s.status === Failed).length,
      task_running: subtasks.filter((s) => s.status === Running).length,
    },
    // A claim counts nothing since 2026-12-07 (the running count is derived when read); rows claimed
    // before counted `subtask_claim:<id>`, which a repair need not mark.
    causes: subtasks.flatMap((s) => (ended(s) ? [cause.subtaskEnd(s.id)] : [])),
  };
}

/** An operation's counters as its tasks say (ended tasks with a failed subtask count as failed), and their causes. */
export function operationCountsOf(tasks: StoredTask[]): { counts: Counts; causes: string[] } {
  const done = tasks.filter((t) => t.status === TaskStatus.values.Done);
  return {
    counts: {
      task_total: tasks.length,
      task_done: done.length,
      task_failed: done.filter((t) => t.task_failed > 0).length,
      task_running: tasks.filter((t) => t.status === TaskStatus.values.Running).length,
    },
    causes: tasks.flatMap((t) => [
      // A task's start sets start_at; one that ended without starting (every subtask failed before
      // any was claimed) never counted as running.
      ...(t.start_at !== null ? [cause.taskStart(t.id)] : []),
      ...(t.status === TaskStatus.values.Done ? [cause.taskEnd(t.id)] : []),
    ]),
  };
}

/** The counters of a row that differ from `want`, as a patch; empty when they agree. */
export function countsDiffer(row: Counts, want: Counts): Partial<Counts> {
  return Object.fromEntries(
    (Object.keys(want) as (keyof Counts)[]).filter((k) => row[k] !== want[k]).map((k) => [k, want[k]]),
  );
}
