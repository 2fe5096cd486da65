import { z } from 'zod';

// The Telegram settings of the super area ('/super/notification/tg', GET / PUT
// /super/notification/tg) and the calls that send through them. The spec names the page only; the
// fields are issue 15's. The bot token is a secret: it goes in (PUT) and never comes back out,
// the reply says only whether one is stored and a masked hint of it.

/** Telegram's own limit on one message's text (after entity parsing), sendMessage's `text`. */
export const TELEGRAM_MESSAGE_LIMIT = 4096;

export const TelegramCategory = z.enum(['check', 'bank']);
export type TelegramCategory = z.infer<typeof TelegramCategory>;

export const TelegramMessages = {
  botToken: 'Not a bot token: BotFather gives it as digits, a colon and a key, e.g. 123456:ABC-def...',
  chatId: 'A chat id is a number such as -1001234567890, or a public @channelname',
  needToken: 'Please enter the bot token first',
  needChat: 'Please enter the chat id of this category first',
} as const;

/** BotFather's format: the bot's numeric id, a colon, a 35-character key (kept loose on the key's length). */
export const BOT_TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** A chat id: a number (groups are negative) or a public @channelname. */
export const CHAT_ID_PATTERN = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

const chatId = z.string().trim().max(40).regex(CHAT_ID_PATTERN, TelegramMessages.chatId).or(z.literal(''));

/**
 * PUT /super/notification/tg: the whole settings (a PUT replaces them). `bot_token` absent keeps the
 * stored token (the form never holds it), a token replaces it, '' removes it. A category switched
 * on needs a token and its chat.
 */
export const TelegramSettingsInput = z
  .object({
    bot_token: z.string().trim().regex(BOT_TOKEN_PATTERN, TelegramMessages.botToken).or(z.literal('')).optional(),
    check_chat_id: chatId,
    bank_chat_id: chatId,
    check_enabled: z.boolean(),
    bank_enabled: z.boolean(),
    /** One message per finished subtask as well as the one per operation (off: one per operation). */
    per_subtask: z.boolean().default(false),
    /** Where an incident nobody acknowledges goes first (issue 45, escalation); '' or absent: that step is skipped. */
    escalation_chat_id: chatId.default(''),
  })
  .strict()
  .superRefine((v, ctx) => {
    for (const category of TelegramCategory.options) {
      if (v[`${category}_enabled`] && !v[`${category}_chat_id`])
        ctx.addIssue({ code: 'custom', path: [`${category}_chat_id`], message: TelegramMessages.needChat });
    }
  });
export type TelegramSettingsInput = z.input<typeof TelegramSettingsInput>;

/** How the last delivery to a category's chat went; 'failed' holds until a send succeeds or the settings change. */
export const TelegramChannelState = z.object({
  state: z.enum(['unknown', 'ok', 'failed']),
  /** Telegram's answer when it failed, e.g. '403 Forbidden: bot was blocked by the user'. */
  reason: z.string().nullable(),
  at: z.number().nullable(),
});
export type TelegramChannelState = z.infer<typeof TelegramChannelState>;

/**
 * The bot's webhook (where Telegram delivers button presses and messages to the bot): registered
 * with setWebhook at PUBLIC_URL/webhook/telegram when the settings are saved with a token.
 */
export const TelegramWebhookState = z.object({
  state: z.enum(['unknown', 'ok', 'failed']),
  url: z.string().nullable(),
  /** Telegram's answer when it failed. */
  reason: z.string().nullable(),
  at: z.number().nullable(),
});
export type TelegramWebhookState = z.infer<typeof TelegramWebhookState>;

/** Where Telegram delivers the bot's updates, below PUBLIC_URL (outside /api/v1, like the bank webhook). */
export const TELEGRAM_WEBHOOK_PATH = '/webhook/telegram';
/** The header Telegram puts the webhook's secret in, on every delivery. */
export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** GET /super/notification/tg: the settings without the token. */
export interface TelegramSettingsView {
  /** A masked hint ('12***yz'), '' when no token is stored. Never the token. */
  bot_token: string;
  bot_token_set: boolean;
  check_chat_id: string;
  bank_chat_id: string;
  check_enabled: boolean;
  bank_enabled: boolean;
  per_subtask: boolean;
  escalation_chat_id: string;
  channels: Record<TelegramCategory, TelegramChannelState>;
  webhook: TelegramWebhookState;
  updated_at: number | null;
  updated_by: { nickname: string } | null;
}

/** POST /super/notification/tg/test. */
export const TelegramTestInput = z.object({ category: TelegramCategory }).strict();
export type TelegramTestInput = z.infer<typeof TelegramTestInput>;

/** Telegram's answer to sendMessage, as it came (`{ok, result}` or `{ok: false, error_code, description, parameters}`). */
export interface TelegramAnswer {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** The reply of the test call: where it went and what Telegram answered to each part. */
export interface TelegramTestReply {
  category: TelegramCategory;
  chat_id: string;
  ok: boolean;
  /** Telegram's answer to the (last) sendMessage; a network failure has no answer, only `error`. */
  answer: TelegramAnswer | null;
  error: string | null;
}

/** POST /notifications/{id}/notify: spec section 9, the chat channel's code is 2. */
export const NotifyInput = z
  .object({ channel: z.literal(2, { error: 'Only channel 2 (TG) can send a notification' }) })
  .strict();
export type NotifyInput = z.infer<typeof NotifyInput>;
