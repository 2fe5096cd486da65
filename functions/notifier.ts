import type { SQSRecord } from 'aws-lambda';
import { PushChannel } from '../shared/enums.js';
import { NotifyMessage } from '../shared/schemas/notifyMessage.js';
import { bankRuntime } from './bank/runtime.js';
import { type DeliveryDeps, deliverBankNotification } from './bankWebhook/deliver.js';
import { sqsRecordHandler } from './lib/queue/sqsRecordHandler.js';
import { newNotificationId, writeNotification } from './notifications/service.js';
import { bankTelegramLines } from './notifications/telegram/bankLines.js';
import { deliverNotification } from './notifications/telegram/deliverNotification.js';
import { syncIncidentTelegram } from './incidents/incidentTelegram.js';
import { sendBankTelegram } from './notifications/telegram/sendBankTelegram.js';
import { linkedSuperChats } from './telegramBot/superChats.js';
import { QUEUES } from './registry.js';

// The notify queue's consumer, and the one place its two features meet: console notifications to
// Telegram (functions/notifications) and bank notifications to webhooks and the bank chat
// (functions/bankWebhook). Like functions/api.ts for the routers, it composes them, so neither
// feature imports the other: the bank delivery gets the chat's sender and the console's notices
// from here.

/** What a bank delivery is handed: the bank's store, the chat's sender, the console's notices. */
function bankDeliveryDeps(): DeliveryDeps {
  const { store, timeZone } = bankRuntime();
  return {
    store,
    timeZone,
    sendTelegram: async (context) => {
      const lines = bankTelegramLines(context);
      return { ...(await sendBankTelegram(lines)), lines: lines.length };
    },
    notice: { newId: newNotificationId, write: (id, notice) => writeNotification({ id, ...notice }) },
  };
}

const MAX_RECEIVES = QUEUES.find((q) => q.name === 'notify')?.maxReceiveCount ?? 5;

/** The delivery this is: after the queue's last one the message goes to the dead-letter queue, so that one records Failed. */
const isLastAttempt = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount ?? 1) >= MAX_RECEIVES;

type Senders = {
  [K in NotifyMessage['kind']]: (m: Extract<NotifyMessage, { kind: K }>, r: SQSRecord) => Promise<unknown>;
};

/** Each kind of the notify queue's messages and who sends it (shared/schemas/notifyMessage.ts). */
const senders: Senders = {
  tg_notification: (m, record) =>
    deliverNotification(m.notification_id, { mode: 'auto', lastAttempt: isLastAttempt(record) }),
  // Retries are sent again with a delay by the delivery itself (functions/bankWebhook/retryPolicy.ts).
  bank_notification: (m) => deliverBankNotification(m, bankDeliveryDeps()),
  // An incident's one message, sent, edited or replied to (functions/incidents/incidentTelegram.ts).
  // Escalation's last step reaches the linked super users' own chats: the bot knows them (issue 45).
  incident: (m) =>
    syncIncidentTelegram(m.incident_id, { remindAt: m.remind_at, escalate: m.escalate, superChats: linkedSuperChats }),
};

/**
 * The notifier Lambda: one delivery per message. A delivery Telegram asks to retry later throws,
 * so the queue brings it back after its visibility timeout (retry_after honoured beyond what a
 * handler waits in place).
 *
 * A batch's Telegram messages go one after another (Telegram allows about one message a second per
 * chat); its webhook deliveries go out at once, each to its own receiver, so a burst of bank
 * statements is not paced by the chat.
 */
export const handler = sqsRecordHandler(
  NotifyMessage,
  (message: NotifyMessage, record: SQSRecord) => senders[message.kind](message as never, record) as Promise<void>,
  { serialBy: telegramTurn },
);

/** Messages that go to Telegram share one turn; a bank webhook delivery needs none. */
function telegramTurn(message: NotifyMessage): string | undefined {
  const webhook = message.kind === 'bank_notification' && message.channel === PushChannel.values.WebHook;
  return webhook ? undefined : 'telegram';
}
