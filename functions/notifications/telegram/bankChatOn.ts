import { type Cached, cachedFor } from '../../lib/cachedFor.js';
import { readTelegramSettings } from './settings.js';
import { onTelegramSettingsSaved } from './settingsSaved.js';

/**
 * How long the answer is kept: the inbound webhook asks once per statement, and a burst of pushes
 * should not read the settings row each time. A save in this process takes effect at once;
 * elsewhere within this long, as for the system config.
 */
export const BANK_CHAT_TTL_MS = 5_000;

const chatOn: Cached<boolean> = cachedFor(
  async () => {
    const s = await readTelegramSettings();
    return s.bank_enabled && s.bot_token_set && s.bank_chat_id !== '';
  },
  { ttlMs: BANK_CHAT_TTL_MS },
);
onTelegramSettingsSaved(() => chatOn.invalidate());

/**
 * Whether the bank chat (Telegram) channel is on: the TG settings' bank switch, with a token and a
 * bank chat. The bank's entry points (poller, dispatcher, API, inbound webhook) pass it to the
 * bank feature as a dependency, so the bank never imports the chat's settings.
 */
export function isBankChatOn(): Promise<boolean> {
  return chatOn.get();
}
