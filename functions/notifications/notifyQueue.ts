import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';

/** Asks the notifier to send a check notification to the check chat. */
export async function enqueueTelegramDelivery(notificationId: number): Promise<void> {
  const message: NotifyMessage = { kind: 'tg_notification', notification_id: notificationId };
  await sendToQueue('notify', [message]);
}
