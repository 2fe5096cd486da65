import type { TelegramAnswer, TelegramCategory } from '../../../shared/schemas/telegram.js';
import { logger } from '../../lib/logger.js';
import { decryptSecret } from '../../lib/secrets/index.js';
import { TelegramNotConfiguredError } from './errors.js';
import { type StoredTelegramSettings, TOKEN_CONTEXT, telegramSettingsStore } from './settingsStore.js';
import { answerReason, sendMessage, TelegramUnavailableError } from './telegramClient.js';

export type SendOutcome =
  | { ok: true; answers: TelegramAnswer[] }
  | {
      ok: false;
      /** Telegram's answer to the part that failed; null when none came. */
      answer: TelegramAnswer | null;
      reason: string;
      /** Worth trying again later: a 429 too long to wait for here, a 5xx, no answer. */
      retryable: boolean;
      /** The chat itself refuses (blocked bot, unknown chat, revoked token): the channel is marked Failed. */
      channelFailed: boolean;
    };

/** The chat, not this message, is the problem: every later message would fail the same way. */
function isChannelFailure(answer: TelegramAnswer): boolean {
  if (answer.error_code === 403 || answer.error_code === 401) return true;
  return answer.error_code === 400 && /chat not found|chat_id is empty/i.test(answer.description ?? '');
}

export interface ChatTarget {
  settings: StoredTelegramSettings;
  token: string;
  chatId: string;
}

/** The token and chat of a category, or TelegramNotConfiguredError naming what is missing. */
export async function chatTarget(category: TelegramCategory): Promise<ChatTarget> {
  const settings = await telegramSettingsStore().withToken();
  if (!settings?.bot_token_enc) throw new TelegramNotConfiguredError('No bot token is set in TG notification.');
  const chatId = settings[`${category}_chat_id`];
  if (!chatId) throw new TelegramNotConfiguredError(`No ${category} chat is set in TG notification.`);
  const token = await decryptSecret(settings.bot_token_enc, TOKEN_CONTEXT);
  return { settings, token, chatId };
}

/**
 * Sends the parts of one message, in order, to a category's chat and records how the chat
 * answered (ok, or Failed with Telegram's reason). Stops at the first part Telegram refuses.
 */
export async function sendToChat(
  category: TelegramCategory,
  parts: string[],
  opts: { maxWaitSeconds?: number; target?: ChatTarget } = {},
): Promise<SendOutcome> {
  const { token, chatId } = opts.target ?? (await chatTarget(category));
  const answers: TelegramAnswer[] = [];
  let outcome: Extract<SendOutcome, { ok: false }> | undefined;
  for (const html of parts) {
    let answer: TelegramAnswer;
    try {
      answer = await sendMessage({ token, chatId, html, maxWaitSeconds: opts.maxWaitSeconds });
    } catch (error) {
      if (!(error instanceof TelegramUnavailableError)) throw error;
      outcome = { ok: false, answer: null, reason: error.message, retryable: true, channelFailed: false };
      break;
    }
    if (!answer.ok) {
      const code = answer.error_code ?? 0;
      outcome = {
        ok: false,
        answer,
        reason: answerReason(answer),
        retryable: code === 429 || code >= 500 || code === 0,
        channelFailed: isChannelFailure(answer),
      };
      break;
    }
    answers.push(answer);
  }
  const store = telegramSettingsStore();
  if (!outcome) {
    await store.setChannel(category, { state: 'ok', reason: null, at: Date.now() });
    return { ok: true, answers };
  }
  if (outcome.channelFailed) {
    await store.setChannel(category, { state: 'failed', reason: outcome.reason, at: Date.now() });
    logger.warn('telegram chat refuses the bot; channel marked failed', { category, reason: outcome.reason });
  }
  return outcome;
}
