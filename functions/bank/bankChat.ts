/**
 * Whether the bank chat (Telegram) channel is on: the TG settings' bank switch, with a token and a
 * bank chat. The poller reads it once per poll, the inbound webhook once per call, through this one
 * function.
 */
export async function isBankChatOn(): Promise<boolean> {
  return chatOn();
}

/** The TG settings (functions/notifications/telegram): bank notifications on, with a token and a bank chat. */
async function telegramBankChatOn(): Promise<boolean> {
  const { readTelegramSettings } = await import('../notifications/telegram/settings.js');
  const s = await readTelegramSettings();
  return s.bank_enabled && s.bot_token_set && s.bank_chat_id !== '';
}

let chatOn: () => Promise<boolean> = telegramBankChatOn;

/** Plugs in the real setting (the TG settings module) or a test's answer. */
export function setBankChatSource(source: () => Promise<boolean>): void {
  chatOn = source;
}
