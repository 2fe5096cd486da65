/**
 * Whether the bank chat (Telegram) channel is on. The TG settings come with the notification
 * delivery issue; until they exist this answers false, so a bank notification is Pending only
 * when its account has a webhook. The poller reads it once per poll, through this one function.
 */
export async function isBankChatOn(): Promise<boolean> {
  return chatOn();
}

let chatOn: () => Promise<boolean> = async () => false;

/** Plugs in the real setting (the TG settings module) or a test's answer. */
export function setBankChatSource(source: () => Promise<boolean>): void {
  chatOn = source;
}
