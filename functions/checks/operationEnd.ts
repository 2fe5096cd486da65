import { RunStatus } from '../../shared/enums.js';
import { writeSequence } from '../lib/db/faults.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { operationSummaryWanted } from '../incidents/service.js';
import { newNotificationId, writeNotification } from '../notifications/service.js';
import { operationNotification } from './endNotifications.js';
import { writeEvent } from './events.js';
import { checkStore } from './store.js';

/** Tries again when the counters moved between the read and the close (another task ended meanwhile). */
const ATTEMPTS = 3;

/**
 * Ends the operation once every task has ended: Done when no task had a failed subtask, else
 * Failed, and out of the open index. Exactly one caller wins the close (conditional on `open`);
 * its record and its notification (with the Telegram summary) are the close's follow-ups.
 * Idempotent: a follow-up of every task's end, applied again after a crash, changes nothing.
 */
export function endOperationIfComplete(operationId: number): Promise<void> {
  return writeSequence('operation_end', async () => {
    const { operations, engineEvents } = checkStore();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const op = await operations.get(operationId);
      if (op?.open !== 1 || op.task_done < op.task_total) return;
      const status = op.task_failed > 0 ? RunStatus.values.Failed : RunStatus.values.Done;
      const [eventId, notificationId, summary] = await Promise.all([
        engineEvents.newId(),
        newNotificationId(),
        // Its incidents' messages tell Telegram of an operation that reached one; the summary is for the rest.
        operationSummaryWanted(op.id),
      ]);
      const at = Date.now();
      const closed = await operations.transition(
        op.id,
        { status, end_at: at, open: undefined },
        { open: 1, task_done: op.task_done, task_failed: op.task_failed, task_total: op.task_total },
        [
          writeEvent({
            id: eventId,
            action: 'operation_end',
            operation_id: op.id,
            message: `Operation ${op.id} ended: ${op.task_failed} of ${op.task_total} task(s) with failures`,
            at,
          }),
          writeNotification({
            id: notificationId,
            ...operationNotification(op),
            ...(summary ? {} : { telegram: 'Told by its incident messages' }),
          }),
        ],
      );
      if (closed) return;
    }
  });
}

/** Follow-up of a task's end: the operation ends if that was its last task. */
export const checkOperationEnd = defineFollowUp('check.operation_end', ({ operation_id }: { operation_id: number }) =>
  endOperationIfComplete(operation_id),
);
