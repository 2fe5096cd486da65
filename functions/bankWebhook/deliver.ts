import { randomUUID } from 'node:crypto';
import { Bank, BankNotificationCategory, NotifyStatus, PushChannel, PushStatus } from '../../shared/enums.js';
import type { BankNotificationContext, NotifyStatusValue } from '../../shared/schemas/bank.js';
import { WEBHOOK_HEADERS } from '../../shared/schemas/bankWebhook.js';
import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import { claimIfFree, findUniqueOwner, releaseUnique } from '../lib/db/unique.js';
import { guardedJsonRequest, OutboundRequestError } from '../lib/net/guardedJsonRequest.js';
import { logger } from '../lib/logger.js';
import type { CreateOptions } from '../lib/db/repository.js';
import type { Line } from '../notifications/telegram/formatMessage.js';
import { sendBankTelegram } from '../notifications/telegram/sendBankTelegram.js';
import type { StoredBankNotification } from '../bank/store.js';
import { settleChannel } from './channelStatus.js';
import { sendDeliveries } from './enqueueDelivery.js';
import { notifyPaused } from './pause.js';
import { webhookPayload } from './payload.js';
import { isRetryable, maxAttempts, retryDelaySeconds, shouldPause, WEBHOOK_TIMEOUT_MS } from './retryPolicy.js';
import { signWebhook } from './signing.js';
import { type DeliveryStore, deliveryStore, type StoredHistory } from './store.js';
import { webhookSecretOf } from './webhookSecret.js';
import { recordMetric } from '../lib/metrics.js';

// One delivery attempt of one bank notification to one channel (docs/notifications.md, "Bank
// webhook delivery"). Every attempt writes a history row; the channel's notify status follows:
// Pending while attempts remain, then Success, Failed (retries exhausted or a 4xx), Channel
// Closed (the account's webhook is paused, or the chat is off), NO Target (no webhook / chat),
// Duplication (the same statement was already delivered by another notification); its push status
// follows that (channelStatus.ts): Pushed on Success, Pending while not pushed, else NoNeed.

export type BankDeliveryMessage = Extract<NotifyMessage, { kind: 'bank_notification' }>;

const S = NotifyStatus.values;
const P = PushStatus.values;
const RESP_MAX = 2_000;
/** The claim that a statement went to the account's webhook: the notification that holds it. */
const DELIVERED = { type: 'bank_webhook', field: 'statement' };

export interface DeliveryDeps {
  store?: DeliveryStore;
  now?: () => number;
  /** Where retries go: the notify queue (with DelaySeconds) unless a test collects them. */
  requeue?: (message: BankDeliveryMessage, delaySeconds: number) => Promise<void>;
}

export async function deliverBankNotification(message: BankDeliveryMessage, deps: DeliveryDeps = {}): Promise<void> {
  const store = deps.store ?? deliveryStore();
  const notification = await store.getNotification(message.notification_id);
  if (!notification) {
    logger.warn('bank notification to deliver is gone', { notification_id: message.notification_id });
    return;
  }
  if (message.channel === PushChannel.values.WebHook) await deliverWebhook(store, notification, message, deps);
  else await deliverTelegram(store, notification, message, deps);
}

const cut = (text: string) => (text.length > RESP_MAX ? `${text.slice(0, RESP_MAX)}…` : text);
const answerText = (body: unknown) =>
  body === undefined ? '' : cut(typeof body === 'string' ? body : JSON.stringify(body));

async function deliverWebhook(
  store: DeliveryStore,
  n: StoredBankNotification,
  message: BankDeliveryMessage,
  deps: DeliveryDeps,
): Promise<void> {
  const now = (deps.now ?? Date.now)();
  const channel = PushChannel.values.WebHook;
  const history = (
    row: {
      callback_url: string | null;
      params: unknown;
      content: unknown;
      code: number | null;
      resp: string | null;
      remark: string;
    },
    options?: CreateOptions<StoredHistory>,
  ) => store.addHistory({ notification_id: n.id, channel, created_at: (deps.now ?? Date.now)(), ...row }, options);
  // A receiver that answered 2xx never gets the same notification again, replay or not.
  if (n.status_webhook === P.Pushed) return;
  // The same statement delivered by another notification (a statement pushed again): not twice.
  // Claimed while the account and its delivery state are read, and given back if nothing is sent.
  const statementKey = n.category === BankNotificationCategory.values.Statement ? String(n.business_id) : undefined;
  const [account, state, claimed] = await Promise.all([
    store.getAccount(n.account_id),
    store.webhookState(n.account_id),
    statementKey ? claimIfFree(DELIVERED.type, DELIVERED.field, statementKey, n.id) : true,
  ]);
  const payload = webhookPayload(n.context);
  /** An attempt that sends nothing: the claim given back, a row that says why, and the channel settled. */
  const notSent = async (status: NotifyStatusValue, remark: string, sent?: { url: string; payload: unknown }) => {
    if (statementKey && claimed) await releaseUnique(DELIVERED.type, DELIVERED.field, statementKey, n.id);
    const row = { callback_url: sent?.url ?? null, content: sent?.payload ?? null };
    await history({ ...row, params: null, code: null, resp: null, remark });
    await settleChannel(store, n, 'webhook', status);
  };
  if (!account?.webhook || !payload)
    return notSent(S.NoTarget, !payload ? 'Not a webhook notification' : 'The account has no webhook');
  const target = { url: account.webhook, payload };
  if (state.paused)
    return notSent(S.ChannelClosed, 'The webhook is paused after repeated failures; resume it to deliver', target);
  if (statementKey && !claimed) {
    const owner = await findUniqueOwner(DELIVERED.type, DELIVERED.field, statementKey);
    return notSent(S.Duplication, `The same statement was already delivered (notification ${owner})`, target);
  }

  const body = JSON.stringify(payload);
  const id = `msg_${n.id}_${randomUUID()}`;
  const timestamp = Math.floor(now / 1000);
  const secret = await webhookSecretOf(account, store);
  const apiKey = account.api_key_enc ? await decryptApiKey(account.id, account.api_key_enc) : undefined;
  const headers: Record<string, string> = {
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signWebhook(secret, id, timestamp, body),
    ...(apiKey ? { [WEBHOOK_HEADERS.apiKey]: apiKey } : {}),
  };
  // The attempt's row id, allocated while the receiver answers.
  const historyId = store.newHistoryId();
  historyId.catch(() => undefined); // awaited below; a failure there is the delivery's
  let code: number | null = null;
  let resp: string | null = null;
  let error: string | null = null;
  try {
    const reply = await guardedJsonRequest(account.webhook, {
      method: 'POST',
      // Serialised again by the request exactly as `body` above (same object, same string).
      body: payload,
      headers,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
    });
    code = reply.status;
    resp = answerText(reply.body);
  } catch (e) {
    if (!(e instanceof OutboundRequestError)) throw e;
    error = e.message;
  }
  const ok = code !== null && code >= 200 && code < 300;
  const last = message.attempt >= maxAttempts();
  const retry = !ok && isRetryable(code) && !last;
  const attemptText = `attempt ${message.attempt} of ${maxAttempts()}${message.replay ? ' (replay)' : ''}`;
  const remark = ok
    ? `Delivered, ${attemptText}`
    : `${error ?? `HTTP ${code}`}; ${attemptText}${retry ? ', will retry' : isRetryable(code) ? ', retries exhausted' : ', not retried (4xx)'}`;
  // Never the API key nor the signature secret: the params name the headers sent, the key masked.
  const attempt = {
    callback_url: account.webhook,
    params: { method: 'POST', headers: { ...headers, ...(apiKey ? { [WEBHOOK_HEADERS.apiKey]: '******' } : {}) } },
    content: payload,
    code,
    resp,
    remark,
  };
  if (ok) {
    // Success once the attempt's row is stored (whoever sees Success finds the attempt), beside its counts.
    await history(attempt, {
      id: await historyId,
      alongside: async () => {
        // Only a failing webhook has a count to clear: a healthy one's delivery writes nothing here.
        // (A failure counted meanwhile by another delivery stays counted: failures are rare beside it.)
        if (state.consecutive_failures > 0) await store.recordSuccess(account.id);
        await settleChannel(store, n, 'webhook', S.Success, now);
      },
    });
    return;
  }
  await history(attempt, { id: await historyId });
  const after = await store.recordFailure(account.id, now);
  const pausing = shouldPause(after, now);
  if (pausing) {
    await store.setPaused(account.id, now);
    await notifyPaused(account, after).catch((e: unknown) =>
      logger.error('could not tell about the paused webhook', { error: e as Error }),
    );
  }
  if (statementKey) await releaseUnique(DELIVERED.type, DELIVERED.field, statementKey, n.id);
  if (retry && !pausing) {
    const next: BankDeliveryMessage = { ...message, attempt: message.attempt + 1 };
    const delay = retryDelaySeconds(next.attempt);
    await (deps.requeue ?? ((m, d) => sendDeliveries([m], d)))(next, delay);
    await settleChannel(store, n, 'webhook', S.Pending);
    return;
  }
  if (!pausing) recordMetric('WebhookDeliveriesFailed');
  await settleChannel(store, n, 'webhook', pausing ? S.ChannelClosed : S.Failed);
}

async function decryptApiKey(id: number, enc: string): Promise<string> {
  const { decryptSecret } = await import('../lib/secrets/index.js');
  return decryptSecret(enc, { entity: 'bank_account', id, field: 'api_key' });
}

/** The lines of a bank notification on the bank chat; user text stays text (escaped by the sender). */
export function telegramLines(context: BankNotificationContext): Line[] {
  const bank = context.bank === Bank.values.KBZ ? 'KBZ' : 'AYA';
  switch (context.kind) {
    case 'statement':
      return [
        [{ text: `${bank} statement`, bold: true }, ` ${context.account}`],
        [`Amount: ${context.inflow ? '+' : '-'}${context.amount}`],
        ...(context.sender ? [[`Sender: ${context.sender}`]] : []),
        [`Remark: ${context.remark}`],
        [`Time: ${context.send_date}${context.send_time ? ` ${context.send_time}` : ''}`],
      ];
    case 'balance':
      return [
        [{ text: `${bank} balance`, bold: true }, ` ${context.account}`],
        [`${context.pre_bal} → ${context.cur_bal} (${context.amount})`],
        ...(context.reconciled ? [] : [[`Does not match the statements by ${context.difference}`]]),
      ];
    case 'stale':
      return [[{ text: `${bank} account ${context.user}`, bold: true }, ' has not been polled successfully lately']];
    case 'recovered':
      return [[{ text: `${bank} account ${context.user}`, bold: true }, ' is polled again']];
  }
}

async function deliverTelegram(
  store: DeliveryStore,
  n: StoredBankNotification,
  message: BankDeliveryMessage,
  deps: DeliveryDeps,
): Promise<void> {
  if (n.status_tg === P.Pushed) return;
  const lines = telegramLines(n.context);
  const result = await sendBankTelegram(lines);
  // Telegram asked to wait (a long 429), answered 5xx or not at all: tried again like a webhook.
  const retry = result.status === S.Failed && result.retryable && message.attempt < maxAttempts();
  await store.addHistory({
    notification_id: n.id,
    channel: PushChannel.values.TG,
    callback_url: null,
    params: { parse_mode: 'HTML' },
    content: { lines: lines.length },
    code: result.status === S.Success ? 200 : null,
    resp: result.answer === null ? null : answerText(result.answer),
    remark: `${result.reason ?? 'Sent'}; attempt ${message.attempt} of ${maxAttempts()}${retry ? ', will retry' : ''}`,
    created_at: (deps.now ?? Date.now)(),
  });
  if (retry) {
    const next: BankDeliveryMessage = { ...message, attempt: message.attempt + 1 };
    await (deps.requeue ?? ((m, d) => sendDeliveries([m], d)))(next, retryDelaySeconds(next.attempt));
    return;
  }
  if (result.status === S.Failed) recordMetric('TelegramSendsFailed');
  await settleChannel(store, n, 'tg', result.status, result.pushed_at);
}
