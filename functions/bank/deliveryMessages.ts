import { NotifyStatus, PushChannel } from '../../shared/enums.js';
import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import type { StoredBankNotification } from './store.js';

// The event the bank emits for each notification it writes: one message per channel to push on
// the notify queue. The delivery (functions/bankWebhook, run by the notifier) consumes them; the
// bank never calls it.

export type BankDeliveryMessage = Extract<NotifyMessage, { kind: 'bank_notification' }>;
/** What choosing a notification's deliveries reads: each channel's notify status. */
type Channels = Pick<StoredBankNotification, 'id' | 'notify_webhook' | 'notify_tg'>;

/** Sends bank deliveries to the notify queue (the notifier consumes them), optionally delayed. */
export async function sendDeliveries(messages: BankDeliveryMessage[], delaySeconds = 0): Promise<void> {
  if (messages.length) await sendToQueue('notify', messages, { delaySeconds });
}

/** The first attempt of each channel of a bank notification whose notify status is Pending (still to push). */
export function firstDeliveries(n: Channels, replay = false): BankDeliveryMessage[] {
  const out: BankDeliveryMessage[] = [];
  const base = { kind: 'bank_notification' as const, notification_id: n.id, attempt: 1, ...(replay ? { replay } : {}) };
  if (n.notify_webhook === NotifyStatus.values.Pending) out.push({ ...base, channel: PushChannel.values.WebHook });
  if (n.notify_tg === NotifyStatus.values.Pending) out.push({ ...base, channel: PushChannel.values.TG });
  return out;
}

/**
 * The deliveries of notifications just written, in one send. A queue that cannot take them leaves
 * the notifications Pending and the poll goes on (a lost delivery must not lose a statement); the
 * start's requeue or a Replay sends them later.
 */
export async function enqueueDeliveries(notifications: Channels[]): Promise<void> {
  const messages = notifications.flatMap((n) => firstDeliveries(n));
  if (!messages.length) return;
  await sendDeliveries(messages).catch((error: unknown) =>
    logger.error('could not enqueue bank notification deliveries; they stay Pending', {
      notification_ids: notifications.map((n) => n.id),
      error: error as Error,
    }),
  );
}
