import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';

/**
 * Asks the notifier to bring the incident's Telegram message up to date (and, with `remindAt`, to
 * send that minute's reminder); `delaySeconds` holds the message back (the group wait, issue 45). A
 * queue that cannot take it is logged, not thrown: the incident is recorded either way, and its next
 * change or reminder syncs the message.
 */
export async function enqueueIncidentSync(
  incidentId: number,
  remindAt?: number,
  delaySeconds?: number,
  /** An escalation step's sync (escalation.ts): the one that sends the step's messages. */
  escalate?: boolean,
): Promise<void> {
  const message: NotifyMessage = {
    kind: 'incident',
    incident_id: incidentId,
    ...(remindAt !== undefined ? { remind_at: remindAt } : {}),
    ...(escalate ? { escalate: true as const } : {}),
  };
  await sendToQueue('notify', [message], { delaySeconds }).catch((error: unknown) =>
    logger.error('could not enqueue the incident sync', { incident_id: incidentId, error: error as Error }),
  );
}
