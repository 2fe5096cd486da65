import { TelegramSettingsInput, TelegramTestInput } from '../../../shared/schemas/telegram.js';
import { Router } from '../../lib/http/router.js';
import { readTelegramSettings, saveTelegramSettings, sendTelegramTest } from './settings.js';

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
  });
