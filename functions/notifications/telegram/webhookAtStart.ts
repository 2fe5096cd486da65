import { logger } from '../../lib/logger.js';
import { registerTelegramWebhook } from './webhook.js';

/**
 * Local runner only (startup): registers the bot's webhook again. The sandbox Bot API keeps nothing
 * across a restart, and the stack's address may have changed with PORT; Telegram itself keeps a
 * webhook until it is set again (the settings' save does that in the cloud).
 */
export const handler = async () => {
  const state = await registerTelegramWebhook();
  if (state.state !== 'unknown') logger.info('telegram webhook registered at start', { ...state });
  return state;
};
