import { type EnumValue, NotifyStatus } from '../../../shared/enums.js';
import { TelegramNotConfiguredError } from './errors.js';
import { type Line, toMessageParts } from './formatMessage.js';
import { chatTarget, sendToChat } from './sendToChat.js';

// The seam for bank notifications (issue 15 item 2, built apart): the bank side builds the lines of
// its message (statement or balance fields as segments, so a remark holding `<script>` is escaped
// here) and calls this from its notify-queue consumer; it records the result on its bank
// notification (notify_tg, and the push status that follows: status_tg / pushed_tg_at) and its
// push history.

export interface BankTelegramResult {
  /** Success, Channel Closed (bank_enabled off), NO Target (no token or bank chat), Failed. */
  status: EnumValue<typeof NotifyStatus>;
  /** Telegram's answer or what is missing; null on Success. */
  reason: string | null;
  /** Worth retrying later (a 429 too long to wait for, a 5xx, no answer). */
  retryable: boolean;
  pushed_at: number | null;
  /** Telegram's answer to the last part sent (the push history's `resp`). */
  answer: unknown;
}

/** Sends one bank message to the bank chat when bank notifications are switched on. */
export async function sendBankTelegram(lines: Line[]): Promise<BankTelegramResult> {
  const none = { retryable: false, pushed_at: null, answer: null };
  let target: Awaited<ReturnType<typeof chatTarget>>;
  try {
    target = await chatTarget('bank');
  } catch (error) {
    if (!(error instanceof TelegramNotConfiguredError)) throw error;
    return { ...none, status: NotifyStatus.values.NoTarget, reason: error.message };
  }
  if (!target.settings.bank_enabled)
    return { ...none, status: NotifyStatus.values.ChannelClosed, reason: 'Bank notifications to TG are off' };
  if (target.settings.bank_channel?.state === 'failed')
    return {
      ...none,
      status: NotifyStatus.values.ChannelClosed,
      reason: `The bank chat is marked Failed (${target.settings.bank_channel.reason})`,
    };
  const outcome = await sendToChat('bank', toMessageParts(lines), { target });
  if (outcome.ok)
    return {
      status: NotifyStatus.values.Success,
      reason: null,
      retryable: false,
      pushed_at: Date.now(),
      answer: outcome.answers[outcome.answers.length - 1] ?? null,
    };
  return {
    status: NotifyStatus.values.Failed,
    reason: outcome.reason,
    retryable: outcome.retryable,
    pushed_at: null,
    answer: outcome.answer,
  };
}
