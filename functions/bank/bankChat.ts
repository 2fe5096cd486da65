import { type Cached, cachedFor } from '../lib/cachedFor.js';
import { onTelegramSettingsSaved } from '../notifications/telegram/settingsSaved.js';

/**
 * How long the answer is kept: the inbound webhook asks once per statement, and a burst of pushes
 * should not read the settings row each time. A save in this process takes effect at once;
 * elsewhere within this long, as for the system config.
 */
export const BANK_CHAT_TTL_MS = 5_000;

/**
 * Whether the bank chat (Telegram) channel is on: the TG settings' bank switch, with a token and a
 * bank chat. The poller reads it once per poll, the inbound webhook once per call, through this one
 * function.
 */
export async function isBankChatOn(): Promise<boolean> {
  return chatOn.get();
}

/** The TG settings (functions/notifications/telegram): bank notifications on, with a token and a bank chat. */
async function telegramBankChatOn(): Promise<boolean> {
  const { readTelegramSettings } = await import('../notifications/telegram/settings.js');
  const s = await readTelegramSettings();
  return s.bank_enabled && s.bot_token_set && s.bank_chat_id !== '';
}

const chatOn: Cached<boolean> = cachedFor(telegramBankChatOn, { ttlMs: BANK_CHAT_TTL_MS });
onTelegramSettingsSaved(() => chatOn.invalidate());
