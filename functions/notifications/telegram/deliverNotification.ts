import { type EnumValue, NotificationCategory, NotifyStatus } from '../../../shared/enums.js';
import { NotificationNotFoundError } from '../errors.js';
import { type StoredNotification, notificationStore } from '../store.js';
import { TelegramNotConfiguredError, TelegramSendFailedError } from './errors.js';
import { toMessageParts } from './formatMessage.js';
import { notificationLines } from './notificationMessage.js';
import { chatTarget, sendToChat } from './sendToChat.js';
import { telegramSettingsStore } from './settingsStore.js';
import { onTelegramSettingsSaved } from './settingsSaved.js';
import { cachedFor } from '../../lib/cachedFor.js';
import { LAMBDAS } from '../../registry.js';
import { recordMetric } from '../../lib/metrics.js';

const { NoNeed, Pending, Success, ChannelClosed, NoTarget, Failed } = NotifyStatus.values;

export interface TelegramPlan {
  status_tg: EnumValue<typeof NotifyStatus>;
  tg_remark: string | null;
}

/**
 * The settings a plan reads, kept this long: every subtask's end plans its notification, and a
 * read each was a DynamoDB call per subtask. A write of the settings in this process takes effect
 * at once; elsewhere within this long, as for the system config.
 */
export const PLAN_SETTINGS_TTL_MS = 5_000;
const planSettings = cachedFor(() => telegramSettingsStore().get(), { ttlMs: PLAN_SETTINGS_TTL_MS });
onTelegramSettingsSaved(() => planSettings.invalidate());

/**
 * What the Telegram channel does with a new check notification (docs/notifications.md): by default
 * only the operation's notification goes out, one message when the operation ends; with
 * per_subtask on, every subtask's too. Task notifications never go out on their own (the
 * operation's message covers them); SendTG sends any notification on demand.
 */
export async function planTelegram(category: number): Promise<TelegramPlan> {
  const settings = await planSettings.get();
  const wanted =
    category === NotificationCategory.values.Operation ||
    (category === NotificationCategory.values.Subtask && settings?.per_subtask === true);
  if (!wanted) return { status_tg: NoNeed, tg_remark: null };
  if (!settings?.check_enabled) return { status_tg: ChannelClosed, tg_remark: 'Check notifications to TG are off' };
  if (!settings.bot_token_hint || !settings.check_chat_id)
    return { status_tg: NoTarget, tg_remark: 'No bot token or check chat is set' };
  if (settings.check_channel?.state === 'failed')
    return {
      status_tg: ChannelClosed,
      tg_remark: `The check chat is marked Failed (${settings.check_channel.reason}); save the TG settings or send a test to retry`,
    };
  return { status_tg: Pending, tg_remark: null };
}

/** Telegram did not answer or asked to wait longer than a handler may: the queue tries again later. */
export class TelegramRetryLaterError extends Error {
  override name = 'TelegramRetryLaterError';
}

/**
 * How long a delivery holds the right to send a notification: past the notifier's timeout, so a
 * live sender is never overtaken, and under the queue's visibility timeout, so the message of a
 * sender that died comes back after its hold ended.
 */
const SEND_CLAIM_MS = (LAMBDAS.find((l) => l.name === 'notifier')?.timeoutSeconds ?? 50) * 1000 + 5_000;

/**
 * Sends one notification to the check chat and records the channel's outcome on it.
 * - 'auto' (the notify queue): sends only a Pending notification, and only the delivery that claimed
 *   it (claimTelegram), so neither a second delivery of the same message nor a second message for it
 *   (the check engine's follow-ups may enqueue it again after a crash) posts twice; a duplicate that
 *   finds it claimed comes back later. A retryable failure throws TelegramRetryLaterError unless it
 *   is the last attempt, which records Failed.
 * - 'manual' (SendTG): sends whatever its state; any failure throws TelegramSendFailedError with
 *   Telegram's reason, after recording it.
 */
export async function deliverNotification(
  id: number,
  opts: { mode: 'auto' | 'manual'; lastAttempt?: boolean },
): Promise<StoredNotification> {
  const store = notificationStore();
  const n = await store.get(id);
  if (!n) throw new NotificationNotFoundError(id);
  if (opts.mode === 'auto' && n.status_tg !== Pending) return n;

  let target: Awaited<ReturnType<typeof chatTarget>>;
  try {
    target = await chatTarget('check');
  } catch (error) {
    if (!(error instanceof TelegramNotConfiguredError)) throw error;
    if (opts.mode === 'manual') throw error;
    return store.setTelegram(id, { status_tg: NoTarget, pushed_tg_at: null, tg_remark: error.message });
  }
  if (opts.mode === 'auto' && !target.settings.check_enabled)
    return store.setTelegram(id, {
      status_tg: ChannelClosed,
      pushed_tg_at: null,
      tg_remark: 'Check notifications to TG are off',
    });

  if (opts.mode === 'auto' && !(await store.claimTelegram(id, Date.now(), Date.now() + SEND_CLAIM_MS))) {
    // Sent already, or another delivery holds it: this one comes back later, when that one has
    // settled it or (if it died) its hold has ended.
    const now = (await store.get(id)) as StoredNotification;
    if (now.status_tg !== Pending || opts.lastAttempt) return now;
    throw new TelegramRetryLaterError(`notification ${id} is being sent by another delivery`);
  }

  const parts = toMessageParts(await notificationLines(n));
  // SendTG answers within the API's 29 s; the queue consumer can wait out a longer flood wait.
  const outcome = await sendToChat('check', parts, { target, maxWaitSeconds: opts.mode === 'manual' ? 10 : 30 });
  if (outcome.ok) return store.setTelegram(id, { status_tg: Success, pushed_tg_at: Date.now(), tg_remark: null });
  if (opts.mode === 'auto' && outcome.retryable && !opts.lastAttempt) throw new TelegramRetryLaterError(outcome.reason);
  recordMetric('TelegramSendsFailed');
  await store.setTelegram(id, { status_tg: Failed, pushed_tg_at: null, tg_remark: outcome.reason });
  if (opts.mode === 'manual') throw new TelegramSendFailedError(outcome.reason);
  return (await store.get(id)) as StoredNotification;
}
