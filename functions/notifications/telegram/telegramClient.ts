// The Bot API (https://core.telegram.org/bots/api): sendMessage with parse_mode HTML, sendDocument (multipart), editMessageText,
// answerCallbackQuery and setWebhook, at TELEGRAM_API_URL (Telegram's own unless configured; the local stack points it at the sandbox).
// The token is part of the path: it never appears in a log line, an error or a reply.
import type { TelegramAnswer } from '../../../shared/schemas/telegram.js';
import { config } from '../../lib/config.js';
import { invocationTimeLeft } from '../../lib/invocationDeadline.js';
import { guardedJsonRequest, OutboundRequestError } from '../../lib/net/guardedJsonRequest.js';

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What a flood wait must leave of the invocation: the send after it (10 s timeout) and settling. */
export const AFTER_WAIT_MS = 15_000;

/**
 * Added to every flood wait. Node's timers run on libuv's coarse monotonic clock and can fire a few
 * milliseconds before the wall clock has moved the whole wait, and Telegram (like the sandbox) counts
 * the wait from when it answered: sent on the dot, the retry can land inside the wait and earn a
 * second 429 (CI saw exactly that).
 */
export const FLOOD_WAIT_MARGIN_MS = 250;

/** Telegram gave no answer (network, timeout, refused by the outbound guard, not the Bot API). */
export class TelegramUnavailableError extends Error {
  override name = 'TelegramUnavailableError';
}

function asAnswer(status: number, body: unknown): TelegramAnswer {
  if (body && typeof body === 'object' && 'ok' in body) return body as TelegramAnswer;
  // Something in between (a proxy, an outage page) answered instead of the Bot API.
  return { ok: false, error_code: status, description: `Unexpected answer (HTTP ${status})` };
}

/** An inline keyboard (https://core.telegram.org/bots/api#inlinekeyboardmarkup): rows of buttons. */
export interface InlineKeyboard {
  inline_keyboard: ({ text: string; callback_data: string } | { text: string; url: string })[][];
}

export interface BotCallOptions {
  token: string;
  /** Longest retry_after honoured in place; a longer one is returned to the caller to retry later. Default 30 s. */
  maxWaitSeconds?: number;
  /** 429s waited out in place before giving the last one back. Default 3. */
  maxRateLimitWaits?: number;
  /** Default config.telegramApiUrl. */
  apiUrl?: string;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * One Bot API method call. A 429 is waited out for its `retry_after` and sent again (Telegram's
 * flood control answers 429 until that time has passed); any other answer, success or refusal, is
 * returned as Telegram gave it. Throws TelegramUnavailableError when no answer came.
 */
export async function callBotApi(
  method: string,
  params: Record<string, unknown> | FormData,
  opts: BotCallOptions,
): Promise<TelegramAnswer> {
  const url = `${opts.apiUrl ?? config.telegramApiUrl}/bot${opts.token}/${method}`;
  const sleep = opts.sleep ?? realSleep;
  const maxWait = opts.maxWaitSeconds ?? 30;
  let waits = opts.maxRateLimitWaits ?? 3;
  for (;;) {
    let answer: TelegramAnswer;
    try {
      const reply = await guardedJsonRequest(
        url,
        params instanceof FormData
          ? { method: 'POST', form: params, timeoutMs: 30_000 }
          : { method: 'POST', body: params },
      );
      answer = asAnswer(reply.status, reply.body);
    } catch (error) {
      if (error instanceof OutboundRequestError)
        throw new TelegramUnavailableError(`Telegram did not answer: ${error.message}`);
      throw error;
    }
    const retryAfter = answer.parameters?.retry_after;
    if (answer.ok || answer.error_code !== 429 || retryAfter === undefined || retryAfter > maxWait || waits <= 0)
      return answer;
    // Within a queue invocation, a wait that would leave no time to send again and settle is given
    // back instead: the message returns after the queue's visibility timeout, the rest of the
    // batch is not timed out with it.
    const left = invocationTimeLeft();
    const wait = retryAfter * 1000 + FLOOD_WAIT_MARGIN_MS;
    if (left !== undefined && wait > left - AFTER_WAIT_MS) return answer;
    waits--;
    await sleep(wait);
  }
}

export interface SendMessageOptions extends BotCallOptions {
  chatId: string;
  /** Telegram HTML, already escaped (formatMessage.ts); at most 4,096 characters. */
  html: string;
  replyMarkup?: InlineKeyboard;
  /** Sent as a reply to this message of the chat (it still goes out when that one is gone). */
  replyToMessageId?: number;
  /** Arrives without a sound (a snoozed incident's news). */
  silent?: boolean;
}

/** sendMessage with parse_mode HTML and no link previews. */
export function sendMessage(opts: SendMessageOptions): Promise<TelegramAnswer> {
  return callBotApi(
    'sendMessage',
    {
      chat_id: opts.chatId,
      text: opts.html,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...(opts.replyMarkup ? { reply_markup: opts.replyMarkup } : {}),
      ...(opts.replyToMessageId
        ? { reply_parameters: { message_id: opts.replyToMessageId, allow_sending_without_reply: true } }
        : {}),
      ...(opts.silent ? { disable_notification: true } : {}),
    },
    opts,
  );
}

export interface SendDocumentOptions extends BotCallOptions {
  chatId: string;
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  /** Telegram HTML, already escaped; at most 1,024 characters. */
  caption?: string;
}

/** sendDocument: a file uploaded as multipart/form-data (a report's CSV and PDF), through the same guard. */
export function sendDocument(opts: SendDocumentOptions): Promise<TelegramAnswer> {
  const form = new FormData();
  form.set('chat_id', opts.chatId);
  // A copy backed by a plain ArrayBuffer: a Buffer's may be shared, which Blob's type refuses.
  form.set('document', new Blob([new Uint8Array(opts.bytes)], { type: opts.mimeType }), opts.fileName);
  if (opts.caption) {
    form.set('caption', opts.caption);
    form.set('parse_mode', 'HTML');
  }
  return callBotApi('sendDocument', form, opts);
}

/** editMessageText: the message's text (and keyboard) replaced in place, so a chat keeps one message per thing. */
export function editMessageText(
  opts: BotCallOptions & { chatId: string; messageId: number; html: string; replyMarkup?: InlineKeyboard },
): Promise<TelegramAnswer> {
  return callBotApi(
    'editMessageText',
    {
      chat_id: opts.chatId,
      message_id: opts.messageId,
      text: opts.html,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...(opts.replyMarkup ? { reply_markup: opts.replyMarkup } : {}),
    },
    opts,
  );
}

/** Telegram refuses an edit that changes nothing; for us that edit has simply been made already. */
export function isUnchangedEdit(answer: TelegramAnswer): boolean {
  return answer.error_code === 400 && /message is not modified/i.test(answer.description ?? '');
}

/** answerCallbackQuery: the little notice a pressed button shows its presser. */
export function answerCallbackQuery(
  opts: BotCallOptions & { callbackQueryId: string; text: string; showAlert?: boolean },
): Promise<TelegramAnswer> {
  return callBotApi(
    'answerCallbackQuery',
    { callback_query_id: opts.callbackQueryId, text: opts.text, ...(opts.showAlert ? { show_alert: true } : {}) },
    { ...opts, maxWaitSeconds: 5 },
  );
}

/**
 * setWebhook: where Telegram delivers the bot's updates, with the secret it sends back in
 * X-Telegram-Bot-Api-Secret-Token on every delivery (1-256 of A-Z a-z 0-9 _ -).
 */
export function setWebhook(opts: BotCallOptions & { url: string; secretToken: string }): Promise<TelegramAnswer> {
  return callBotApi(
    'setWebhook',
    { url: opts.url, secret_token: opts.secretToken, allowed_updates: ['message', 'callback_query'] },
    { ...opts, maxWaitSeconds: 5 },
  );
}

/** '403 Forbidden: bot was blocked by the user': what an operator reads as the reason. */
export function answerReason(answer: TelegramAnswer): string {
  return `${answer.error_code ?? '?'} ${answer.description ?? 'no description'}`;
}
