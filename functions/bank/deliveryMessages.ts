import { NotifyStatus, PushChannel } from '../../shared/enums.js';
import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import type { FollowUp } from '../lib/db/entity.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import type { StoredBankNotification } from './entities.js';

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
 * Follow-up of a new bank notification (lib/db/outbox.ts): its first deliveries, one per channel to
 * push, recorded in the notification's own PutItem and sent once it is stored. A writer that dies
 * before the send leaves the entry to the follow-up sweeper; a queue that refuses it does too (the
 * entry stays until a send succeeds). Applied twice (the writer died after the send, before the
 * entry was cleared), the delivery drops the second message: a first attempt of a channel no
 * longer Pending is not sent again (deliver.ts).
 */
export const deliverOnce = defineFollowUp('bank.deliver', (n: Channels) => sendDeliveries(firstDeliveries(n)));

/** The follow-ups of a notification about to be written under `id`: its deliveries, if any channel is to push. */
export function deliveriesOf(n: Channels): FollowUp[] {
  return firstDeliveries(n).length
    ? [deliverOnce({ id: n.id, notify_webhook: n.notify_webhook, notify_tg: n.notify_tg })]
    : [];
}
