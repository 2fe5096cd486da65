/**
 * Whether the bank chat (Telegram) channel is on. The TG settings come with the notification
 * delivery issue; until they exist this answers false, so a bank notification is Pending only
 * when its account has a webhook. The poller reads it once per poll, through this one function.
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
