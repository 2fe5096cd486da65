import { TaskStatus } from '../../shared/enums.js';
import { writeSequence } from '../lib/db/faults.js';
import { defineFollowUp, type FollowUpContext } from '../lib/db/outbox.js';
import { newNotificationId, writeNotification } from '../notifications/service.js';
import { cause, countOnOperation, knownTask } from './counts.js';
import { siteName, taskNotification } from './endNotifications.js';
import { writeEvent } from './events.js';
import { checkOperationEnd } from './operationEnd.js';
import { type StoredTask, checkStore } from './store.js';

/** Tries again when the task moved between the read and the close (its start landed meanwhile). */
const ATTEMPTS = 3;

/**
 * Ends the task once every subtask has ended (`task_done + task_failed = task_total`; a task has no
 * Failed status, its failures show in `task_failed`). Exactly one caller wins the close; its record,
 * its notification, the operation's counters and the operation's end are the close's follow-ups.
 * Idempotent: a follow-up of every subtask's end, applied again after a crash, changes nothing.
 */
export function endTaskIfComplete(taskId: number, known?: StoredTask): Promise<void> {
  return writeSequence('task_end', async () => {
    const { tasks, engineEvents } = checkStore();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // The row as the caller's own count left it stands for a read made right after that write: the
      // last count of a task sees it complete, and the close below is conditional on what it read.
      const task = attempt === 0 && known ? known : await tasks.get(taskId);
      if (!task || task.status === TaskStatus.values.Done) return;
      if (task.task_done + task.task_failed < task.task_total) return;
      const [name, eventId, notificationId] = await Promise.all([
        siteName(task.site_id),
        engineEvents.newId(),
        newNotificationId(),
      ]);
      const failed = task.task_failed > 0;
      const at = Date.now();
      const closed = await tasks.transition(
        task.id,
        { status: TaskStatus.values.Done, end_at: at },
        { status: task.status, task_done: task.task_done, task_failed: task.task_failed, task_total: task.task_total },
        [
          writeEvent({
            id: eventId,
            action: 'task_end',
            operation_id: task.operation_id,
            message: `Task ${task.id} ended: ${task.task_failed} of ${task.task_total} failed`,
            task_id: task.id,
            at,
          }),
          writeNotification({ id: notificationId, ...taskNotification(task, name) }),
          countOnOperation({
            operation_id: task.operation_id,
            cause: cause.taskEnd(task.id),
            deltas: {
              task_done: 1,
              ...(task.status === TaskStatus.values.Running ? { task_running: -1 } : {}),
              ...(failed ? { task_failed: 1 } : {}),
            },
          }),
          checkOperationEnd({ operation_id: task.operation_id }),
        ],
      );
      if (closed) return;
    }
  });
}

/** Follow-up of a subtask's end: the task ends if that was its last subtask. */
export const checkTaskEnd = defineFollowUp(
  'check.task_end',
  ({ task_id }: { task_id: number }, context?: FollowUpContext) =>
    endTaskIfComplete(task_id, context?.known?.get(knownTask(task_id)) as StoredTask | undefined),
);
