import { TelegramSettingsInput, TelegramTestInput } from '../../../shared/schemas/telegram.js';
import { type RouteRateLimit, Router } from '../../lib/http/router.js';
import { readTelegramSettings, saveTelegramSettings, sendTelegramTest } from './settings.js';

/**
 * Test messages per user: each one is a call to Telegram's API in the bot's name (and a chat
 * message), so a loop of them would get the bot flood-limited for every real notification.
 */
export const TELEGRAM_TEST_LIMIT: RouteRateLimit = {
  rule: { name: 'telegram-test', limit: Number(process.env.TELEGRAM_TEST_RATE_LIMIT ?? 5), windowSeconds: 60 },
  what: 'test messages',
};

/** The TG notification settings of the super area ('/super/notification/tg'); super users only, checked here. */
export const telegramRouter = new Router()
  .get('/super/notification/tg', () => readTelegramSettings(), { access: 'super' })
  .put('/super/notification/tg', ({ user, body }) => saveTelegramSettings(user, body), {
    access: 'super',
    body: TelegramSettingsInput,
    audit: { action: 'telegram_settings.update', target: 'telegram_settings' },
  })
  .post('/super/notification/tg/test', ({ user, body }) => sendTelegramTest(body.category, user), {
    access: 'super',
    body: TelegramTestInput,
    audit: { action: 'telegram_settings.test', target: 'telegram_settings' },
    rateLimit: TELEGRAM_TEST_LIMIT,
  });
