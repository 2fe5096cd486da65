import { z } from 'zod';

// What the bot's webhook receives (https://core.telegram.org/bots/api#update): only the parts the
// product reads are declared; everything else Telegram sends is passed over. And the console's
// side of linking a user's Telegram account (Settings).

const TelegramUser = z.looseObject({
  id: z.number().int(),
  is_bot: z.boolean().optional(),
  first_name: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
});
export type TelegramUser = z.infer<typeof TelegramUser>;

const TelegramMessage = z.looseObject({
  message_id: z.number().int(),
  chat: z.looseObject({ id: z.number().int() }),
  from: TelegramUser.optional(),
  text: z.string().max(4096).optional(),
});

export const TelegramUpdate = z.looseObject({
  update_id: z.number().int(),
  message: TelegramMessage.optional(),
  callback_query: z
    .looseObject({
      id: z.string().max(128),
      from: TelegramUser,
      message: TelegramMessage.optional(),
      data: z.string().max(64).optional(),
    })
    .optional(),
});
export type TelegramUpdate = z.infer<typeof TelegramUpdate>;

/** A webhook delivery is small; Telegram's own updates are a few KB. */
export const TELEGRAM_UPDATE_MAX_BYTES = 64 * 1024;

/** How long a one-time link code lives. */
export const LINK_CODE_TTL_MS = 10 * 60_000;

/**
 * POST /telegram/link-code: a one-time code the user sends to the bot as `/start <token>`. Named
 * `token` so no audit row or log line keeps it.
 */
export interface TelegramLinkCode {
  token: string;
  expires_at: number;
  /** The bot's @username, for a t.me link; null when Telegram did not say. */
  bot_username: string | null;
}

/** GET /telegram/link: whether the signed-in user's Telegram account is linked, and which. */
export interface TelegramLinkView {
  linked: boolean;
  telegram: { id: number; username: string | null; name: string | null } | null;
  linked_at: number | null;
}
