import { NotifyStatus, PushChannel } from '../../shared/enums.js';
import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import type { StoredBankNotification } from '../bank/store.js';

type BankDelivery = Extract<NotifyMessage, { kind: 'bank_notification' }>;
/** What choosing a notification's deliveries reads: each channel's notify status. */
type Channels = Pick<StoredBankNotification, 'id' | 'notify_webhook' | 'notify_tg'>;

/** Sends bank deliveries to the notify queue (the notifier consumes them), optionally delayed. */
export async function sendDeliveries(messages: BankDelivery[], delaySeconds = 0): Promise<void> {
  if (messages.length) await sendToQueue('notify', messages, { delaySeconds });
}

/** The first attempt of each channel of a bank notification whose notify status is Pending (still to push). */
export function firstDeliveries(n: Channels, replay = false): BankDelivery[] {
  const out: BankDelivery[] = [];
  const base = { kind: 'bank_notification' as const, notification_id: n.id, attempt: 1, ...(replay ? { replay } : {}) };
  if (n.notify_webhook === NotifyStatus.values.Pending) out.push({ ...base, channel: PushChannel.values.WebHook });
  if (n.notify_tg === NotifyStatus.values.Pending) out.push({ ...base, channel: PushChannel.values.TG });
  return out;
}

/**
 * Where a bank notification is created (functions/bank/notify.ts): its deliveries go to the
 * notify queue. A queue that cannot take them leaves the notification Pending and the poll goes
 * on (a lost delivery must not lose a statement); Replay sends it later.
 */
export async function enqueueBankDelivery(n: Channels): Promise<void> {
  const messages = firstDeliveries(n);
  if (!messages.length) return;
  await sendDeliveries(messages).catch((error: unknown) =>
    logger.error('could not enqueue the bank notification delivery; it stays Pending', {
      notification_id: n.id,
      error: error as Error,
    }),
  );
}
