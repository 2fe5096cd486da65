import { Process, RunStatus, TaskStatus } from '../../shared/enums.js';
import { writeSequence } from '../lib/db/faults.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { enqueueSubtasks } from './queue.js';
import { type StoredOperation, type StoredTask, checkStore } from './store.js';

// Pause and resume (spec section 4: action 1 pauses all pending tasks, 2 resumes all paused ones).
// Each is a transition of the operation (or the task) whose follow-ups move the rows below it, so a
// crash half-way through a large operation leaves the rest to the sweeper instead of a mixed state.

const { Pending, Running, Pause } = RunStatus.values;

/** Pending -> Pause for one task; its pending subtasks follow (a follow-up). */
async function pauseTaskRows(task: Pick<StoredTask, 'id'>): Promise<boolean> {
  const paused = await checkStore().tasks.transition(
    task.id,
    { status: TaskStatus.values.Pause },
    { status: TaskStatus.values.Pending },
    [pauseSubtasks({ task_id: task.id })],
  );
  return paused !== null;
}

/** Pause -> Pending for one task; its paused subtasks follow and are sent again (a follow-up). */
async function resumeTaskRows(task: Pick<StoredTask, 'id'>): Promise<boolean> {
  const resumed = await checkStore().tasks.transition(
    task.id,
    { status: TaskStatus.values.Pending },
    { status: TaskStatus.values.Pause },
    [resumeSubtasks({ task_id: task.id })],
  );
  return resumed !== null;
}

const pauseSubtasks = defineFollowUp('check.pause_subtasks', async ({ task_id }: { task_id: number }) => {
  const { subtasks } = checkStore();
  for (const s of await subtasks.all({ scope: { task_id } }))
    if (s.status === Pending) await subtasks.transition(s.id, { status: Pause }, { status: Pending });
});

/**
 * Paused subtasks back to Pending, then the task's pending work is sent as a fresh start sends it:
 * its login first when that has not run yet. Sent from what is pending, not from what this call
 * moved, so applying it again after a crash still sends them (duplicates are dropped by the claim).
 */
const resumeSubtasks = defineFollowUp('check.resume_subtasks', async ({ task_id }: { task_id: number }) => {
  const { subtasks } = checkStore();
  for (const s of await subtasks.all({ scope: { task_id } }))
    if (s.status === Pause) await subtasks.transition(s.id, { status: Pending }, { status: Pause });
  const pending = (await subtasks.all({ scope: { task_id } })).filter((s) => s.status === Pending);
  const login = pending.find((s) => s.process === Process.values.Login);
  await enqueueSubtasks(login ? [login] : pending);
});

const pauseTasks = defineFollowUp('check.pause_tasks', async ({ operation_id }: { operation_id: number }) => {
  for (const t of await checkStore().tasks.all({ scope: { operation_id } }))
    if (t.status === TaskStatus.values.Pending) await pauseTaskRows(t);
});

const resumeTasks = defineFollowUp('check.resume_tasks', async ({ operation_id }: { operation_id: number }) => {
  for (const t of await checkStore().tasks.all({ scope: { operation_id } }))
    if (t.status === TaskStatus.values.Pause) await resumeTaskRows(t);
});

/** How many of `before` (the operation's tasks as they were) the action moved out of `from`, as it says. */
async function changedTasks(before: StoredTask[], from: number, moved: (status: number) => boolean): Promise<number> {
  const was = before.filter((t) => t.status === from).map((t) => t.id);
  return (await checkStore().tasks.getMany(was)).filter((t) => moved(t.status)).length;
}

/**
 * Running -> Pause; the pending tasks (and their pending subtasks) follow; running ones finish what
 * they run. On an operation that is not Running, its pending tasks are paused all the same. Answers
 * how many tasks it paused.
 */
export function pauseOperation(op: StoredOperation): Promise<number> {
  return writeSequence('pause', async () => {
    const before = await checkStore().tasks.all({ scope: { operation_id: op.id } });
    const paused = await checkStore().operations.transition(op.id, { status: Pause }, { status: Running }, [
      pauseTasks({ operation_id: op.id }),
    ]);
    if (!paused) await pauseTasks.apply({ operation_id: op.id });
    return changedTasks(before, TaskStatus.values.Pending, (status) => status === TaskStatus.values.Pause);
  });
}

/** Pause -> Running; the paused tasks follow and their work is sent again. Answers how many tasks it resumed. */
export function resumeOperation(op: StoredOperation): Promise<number> {
  return writeSequence('resume', async () => {
    const before = await checkStore().tasks.all({ scope: { operation_id: op.id } });
    const resumed = await checkStore().operations.transition(op.id, { status: Running }, { status: Pause }, [
      resumeTasks({ operation_id: op.id }),
    ]);
    if (!resumed) await resumeTasks.apply({ operation_id: op.id });
    // A resumed task may already run its first subtask: anything but Pause counts.
    return changedTasks(before, TaskStatus.values.Pause, (status) => status !== TaskStatus.values.Pause);
  });
}

export function pauseTask(task: StoredTask): Promise<boolean> {
  return writeSequence('pause', () => pauseTaskRows(task));
}

export function resumeTask(task: StoredTask): Promise<boolean> {
  return writeSequence('resume', () => resumeTaskRows(task));
}
