import { BankNotificationCategory, NotifyStatus, PushChannel, PushStatus } from '../../shared/enums.js';
import type { BankNotificationContext, NotifyStatusValue } from '../../shared/schemas/bank.js';
import { WEBHOOK_HEADERS } from '../../shared/schemas/bankWebhook.js';
import {
  type AttemptGuard,
  AttemptSettledError,
  attemptField,
  type Channel,
  settleChannel,
} from '../bank/channelStatus.js';
import type { BankDeliveryMessage } from '../bank/deliveryMessages.js';
import { bankSecretContext, type DayFigures } from '../bank/entities.js';
import { dayOf } from '../bank/poll.js';
import type { BankStore, StoredBankNotification } from '../bank/store.js';
import { logger } from '../lib/logger.js';
import { guardedJsonRequest, OutboundRequestError } from '../lib/net/guardedJsonRequest.js';
import { decryptSecret } from '../lib/secrets/index.js';
import { type PausedNotice, pausedNotice } from './pause.js';
import { webhookPayload } from './payload.js';
import { isRetryable, maxAttempts, retryDelaySeconds, shouldPause, WEBHOOK_TIMEOUT_MS } from './retryPolicy.js';
import { signWebhook, webhookMessageId } from './signing.js';
import { webhookSecretOf } from './webhookSecret.js';
import { recordMetric } from '../lib/metrics.js';
import type { FollowUp } from '../lib/db/entity.js';
import { outsideWrite, writeSequence } from '../lib/db/faults.js';
import {
  attemptHistory,
  countDelivery,
  endStatementClaim,
  pausedNoticeOnce,
  pauseNoticed,
  pauseWebhook,
  retryDelivery,
  webhookHealthy,
} from './deliveryFollowUps.js';

// One delivery attempt of one bank notification to one channel (docs/notifications.md, "Bank
// webhook delivery"). Every attempt writes a history row; the channel's notify status follows:
// Pending while attempts remain, then Success, Failed (retries exhausted or a 4xx), Channel
// Closed (the account's webhook is paused, or the chat is off), NO Target (no webhook / chat),
// Duplication (the same statement was already delivered by another notification); its push status
// follows that (channelStatus.ts): Pushed on Success, Pending while not pushed, else NoNeed.

export type { BankDeliveryMessage };

const S = NotifyStatus.values;
const P = PushStatus.values;
const RESP_MAX = 2_000;

/** What the chat's sender answers (notifications/telegram/sendBankTelegram.ts), and how many lines it sent. */
export interface BankTelegramSent {
  status: NotifyStatusValue;
  reason: string | null;
  retryable: boolean;
  pushed_at: number | null;
  answer: unknown;
  lines: number;
}

/**
 * What a delivery is handed by its entry point (the notifier, functions/notifier.ts): the bank's
 * store, the chat's sender and the console's notices, so the delivery imports neither the chat nor
 * the notifications feature.
 */
export interface DeliveryDeps {
  store: BankStore;
  /** Sends a bank notification to the bank chat. */
  sendTelegram: (context: BankNotificationContext) => Promise<BankTelegramSent>;
  /**
   * A console notification (the webhook was paused), as a follow-up step under an id allocated
   * first (notifications' writeNotification): recorded with the settling, written once.
   */
  notice: { newId: () => Promise<number>; write: (id: number, notice: PausedNotice) => FollowUp };
  /** The configured time zone: the day a delivery counts in. */
  timeZone: () => Promise<string>;
  now?: () => number;
}

/** One attempt; its writes are the sequence `bank_delivery` of the crash tests (lib/db/faults.ts). */
export function deliverBankNotification(message: BankDeliveryMessage, deps: DeliveryDeps): Promise<void> {
  return writeSequence('bank_delivery', () => deliver(message, deps));
}

async function deliver(message: BankDeliveryMessage, deps: DeliveryDeps): Promise<void> {
  const { store } = deps;
  const notification = await store.getNotification(message.notification_id);
  if (!notification) {
    logger.warn('bank notification to deliver is gone', { notification_id: message.notification_id });
    return;
  }
  const channel = message.channel === PushChannel.values.WebHook ? 'webhook' : 'tg';
  // A copy of an attempt the channel's chain has passed (a message given twice, or a retry's
  // follow-up sent again): dropped. Its settling moved `webhook_attempt` / `tg_attempt` on.
  const at = notification[attemptField[channel]];
  if (at !== undefined && message.attempt !== at) {
    logger.info('bank delivery dropped: its attempt was settled', {
      notification_id: notification.id,
      channel,
      attempt: message.attempt,
      at,
    });
    return;
  }
  try {
    if (channel === 'webhook') await deliverWebhook(store, notification, message, deps);
    else await deliverTelegram(store, notification, message, deps);
  } catch (error) {
    // Two copies of this attempt ran at once and the other settled it: it recorded the attempt.
    if (!(error instanceof AttemptSettledError)) throw error;
    logger.info('bank delivery attempt settled by another copy', {
      notification_id: notification.id,
      channel,
      attempt: message.attempt,
    });
  }
}

/** Every settling of an attempt moves its channel's chain past it, in the same write (settleChannel). */
const guardOf = (n: StoredBankNotification, channel: Channel, message: BankDeliveryMessage): AttemptGuard => ({
  expected: n[attemptField[channel]],
  next: message.attempt + 1,
});

/**
 * A first attempt (not a replay) of a channel whose attempts have ended: the same message sent again
 * by the notification's delivery follow-up, applied a second time (bank/deliveryMessages.ts). Dropped.
 */
const repeatedFirst = (message: BankDeliveryMessage, notify: NotifyStatusValue) =>
  message.attempt === 1 && !message.replay && notify !== S.Pending;

const cut = (text: string) => (text.length > RESP_MAX ? `${text.slice(0, RESP_MAX)}…` : text);
const answerText = (body: unknown) =>
  body === undefined ? '' : cut(typeof body === 'string' ? body : JSON.stringify(body));

async function deliverWebhook(
  store: BankStore,
  n: StoredBankNotification,
  message: BankDeliveryMessage,
  deps: DeliveryDeps,
): Promise<void> {
  const now = (deps.now ?? Date.now)();
  const channel = PushChannel.values.WebHook;
  const guard = guardOf(n, 'webhook', message);
  // The attempt's history row is a follow-up of the channel's settling (settleChannel), written
  // once under this id: a delivery that dies after the settling leaves it to the sweeper.
  const historyId = await store.newHistoryId();
  const history = (row: {
    callback_url: string | null;
    params: unknown;
    content: unknown;
    code: number | null;
    resp: string | null;
    remark: string;
  }): FollowUp =>
    attemptHistory({
      id: historyId,
      row: { notification_id: n.id, channel, created_at: (deps.now ?? Date.now)(), ...row },
    });
  // A receiver that answered 2xx never gets the same notification again, replay or not.
  if (n.status_webhook === P.Pushed) return;
  if (repeatedFirst(message, n.notify_webhook)) return;
  // The same statement delivered by another notification (a statement pushed again): not twice.
  // Claimed while the account and its delivery state are read, and given back if nothing is sent.
  const statementId = n.category === BankNotificationCategory.values.Statement ? n.business_id : undefined;
  const [account, state, claim] = await Promise.all([
    store.getAccountWithSecrets(n.account_id),
    store.webhookState(n.account_id),
    statementId !== undefined ? store.claimDelivery(statementId, n.id, now) : { claimed: true, owner: undefined },
  ]);
  const claimed = claim.claimed;
  const payload = webhookPayload(n.context);
  /** An attempt that sends nothing: the claim given back, a row that says why, and the channel settled. */
  const claimEnd = (delivered: boolean): FollowUp[] =>
    statementId !== undefined && claimed
      ? [endStatementClaim({ statement_id: statementId, notification_id: n.id, delivered })]
      : [];
  const notSent = async (
    status: NotifyStatusValue,
    remark: string,
    sent?: { url: string; payload: unknown },
    more: FollowUp[] = [],
  ) => {
    const row = { callback_url: sent?.url ?? null, content: sent?.payload ?? null };
    await settleChannel(
      store,
      n,
      'webhook',
      status,
      null,
      [history({ ...row, params: null, code: null, resp: null, remark }), ...claimEnd(false), ...more],
      guard,
    );
  };
  if (!account?.webhook || !payload)
    return notSent(S.NoTarget, !payload ? 'Not a webhook notification' : 'The account has no webhook');
  const target = { url: account.webhook, payload };
  if (state.paused_at !== null)
    // A pause whose notice is not written yet (its delivery died between the pause and its
    // settling, or is settling now): this settling records it too; the notice's claim keeps it once.
    return notSent(
      S.ChannelClosed,
      'The webhook is paused after repeated failures; resume it to deliver',
      target,
      (await pauseNoticed(account.id, state.paused_at)) ? [] : await pauseSteps(deps, account, state, state.paused_at),
    );
  if (statementId !== undefined && !claimed)
    return notSent(S.Duplication, `The same statement was already delivered (notification ${claim.owner})`, target);

  const body = JSON.stringify(payload);
  // The message's id, not the attempt's: a receiver drops what it already took (at-least-once, below).
  const id = webhookMessageId(n.id, n.account_id);
  const timestamp = Math.floor(now / 1000);
  const secret = await webhookSecretOf(account, store);
  const apiKey = account.api_key_enc
    ? await decryptSecret(account.api_key_enc, bankSecretContext(account.id, 'api_key'))
    : undefined;
  const headers: Record<string, string> = {
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signWebhook(secret, id, timestamp, body),
    ...(apiKey ? { [WEBHOOK_HEADERS.apiKey]: apiKey } : {}),
  };
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
  // The receiver may have it now, whatever it answered: a crash from here on sends it again.
  outsideWrite('WebhookRequest');
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
  const day = dayOf(now, await deps.timeZone());
  const count = (figures: DayFigures) => countDelivery({ day, account_id: n.account_id, figures });
  if (ok) {
    // One write settles the attempt (Pushed: a redelivered message finds it so and sends nothing)
    // and records the rest: the history row, the claim kept for good (no other notification sends
    // the statement again), a failing webhook's count cleared (a healthy one's delivery writes
    // nothing there; a failure counted meanwhile by another delivery stays: failures are rare
    // beside it), the day's count.
    await settleChannel(
      store,
      n,
      'webhook',
      S.Success,
      now,
      [
        history(attempt),
        ...claimEnd(true),
        ...(state.consecutive_failures > 0 ? [webhookHealthy({ account_id: account.id })] : []),
        count({ wh_sent: 1 }),
      ],
      guard,
    );
    return;
  }
  const after = await store.recordFailure(account.id, now);
  const pausing = shouldPause(after, now);
  if (retry && !pausing) {
    // The next attempt is this settling's follow-up: sent once this attempt is recorded (with its
    // history row), never before it (a crash between them left this attempt without its row, or a
    // second chain), nor twice in effect (a copy finds its attempt passed: above).
    const next: BankDeliveryMessage = { ...message, attempt: message.attempt + 1 };
    await settleChannel(
      store,
      n,
      'webhook',
      S.Pending,
      null,
      [
        history(attempt),
        ...claimEnd(false),
        retryDelivery({ message: next, delay_seconds: retryDelaySeconds(next.attempt) }),
      ],
      guard,
    );
    return;
  }
  if (!pausing) recordMetric('WebhookDeliveriesFailed');
  // The pause is written at once (a webhook reads paused from now on, before this channel reads
  // Channel Closed) and recorded by the settling with its notice (one write), so a delivery that
  // dies after it leaves both to the sweeper; one that dies before it left the webhook paused
  // without its notice, which the message given again records (above: paused, not yet noticed).
  if (pausing) await store.setPaused(account.id, now);
  const pause = pausing ? await pauseSteps(deps, account, after, now) : [];
  await settleChannel(
    store,
    n,
    'webhook',
    pausing ? S.ChannelClosed : S.Failed,
    null,
    [history(attempt), ...claimEnd(false), ...(pausing ? [] : [count({ wh_failed: 1 })]), ...pause],
    guard,
  );
}

/** The pause of an account's webhook at `now` and its notice, as follow-ups of the settling. */
async function pauseSteps(
  deps: DeliveryDeps,
  account: Parameters<typeof pausedNotice>[0],
  after: Parameters<typeof pausedNotice>[1],
  now: number,
): Promise<FollowUp[]> {
  const noticeId = await deps.notice.newId();
  return [
    pauseWebhook({ account_id: account.id, paused_at: now }),
    pausedNoticeOnce({
      account_id: account.id,
      paused_at: now,
      notice_id: noticeId,
      notice: deps.notice.write(noticeId, pausedNotice(account, after)),
    }),
  ];
}

async function deliverTelegram(
  store: BankStore,
  n: StoredBankNotification,
  message: BankDeliveryMessage,
  deps: DeliveryDeps,
): Promise<void> {
  if (n.status_tg === P.Pushed) return;
  if (repeatedFirst(message, n.notify_tg)) return;
  const historyId = await store.newHistoryId();
  const result = await deps.sendTelegram(n.context);
  outsideWrite('TelegramSend');
  // Telegram asked to wait (a long 429), answered 5xx or not at all: tried again like a webhook.
  const retry = result.status === S.Failed && result.retryable && message.attempt < maxAttempts();
  const row = {
    notification_id: n.id,
    channel: PushChannel.values.TG,
    callback_url: null,
    params: { parse_mode: 'HTML' },
    content: { lines: result.lines },
    code: result.status === S.Success ? 200 : null,
    resp: result.answer === null ? null : answerText(result.answer),
    remark: `${result.reason ?? 'Sent'}; attempt ${message.attempt} of ${maxAttempts()}${retry ? ', will retry' : ''}`,
    created_at: (deps.now ?? Date.now)(),
  };
  const guard = guardOf(n, 'tg', message);
  if (retry) {
    // As for the webhook: the next attempt is this settling's follow-up, with the history row.
    const next: BankDeliveryMessage = { ...message, attempt: message.attempt + 1 };
    await settleChannel(
      store,
      n,
      'tg',
      S.Pending,
      null,
      [
        attemptHistory({ id: historyId, row }),
        retryDelivery({ message: next, delay_seconds: retryDelaySeconds(next.attempt) }),
      ],
      guard,
    );
    return;
  }
  if (result.status === S.Failed) recordMetric('TelegramSendsFailed');
  // As for the webhook: one write settles the channel and records its history row and count.
  const figures =
    result.status === S.Success ? { tg_sent: 1 } : result.status === S.Failed ? { tg_failed: 1 } : undefined;
  const day = dayOf((deps.now ?? Date.now)(), await deps.timeZone());
  await settleChannel(
    store,
    n,
    'tg',
    result.status,
    result.pushed_at,
    [
      attemptHistory({ id: historyId, row }),
      ...(figures ? [countDelivery({ day, account_id: n.account_id, figures })] : []),
    ],
    guard,
  );
}
