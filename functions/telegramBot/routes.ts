import { TELEGRAM_SECRET_HEADER, TELEGRAM_WEBHOOK_PATH } from '../../shared/schemas/telegram.js';
import { TELEGRAM_UPDATE_MAX_BYTES, TelegramUpdate } from '../../shared/schemas/telegramBot.js';
import { clientIp } from '../auth/clientIp.js';
import { apiKeyAccess, Router } from '../lib/http/router.js';
import { isTelegramWebhookSecret } from '../notifications/telegram/webhook.js';
import type { IncidentDeps } from '../incidents/service.js';
import { handleTelegramUpdate, linkOf, newLinkCode, unlink } from './service.js';

/** Refused secrets per client address in ten minutes before every call from it answers 429. */
const REFUSED_SECRETS = { name: 'telegram-webhook-refused', limit: 20, windowSeconds: 600 };

/** Link codes a user may ask for in ten minutes: each is a claim row until it expires. */
const LINK_CODE_LIMIT = { rule: { name: 'telegram-link-code', limit: 10, windowSeconds: 600 }, what: 'link codes' };

/**
 * POST /webhook/telegram (outside /api/v1): Telegram's deliveries of the bot's updates, with the
 * webhook's secret in X-Telegram-Bot-Api-Secret-Token (401 without it or with another). `deps`: what
 * a press needs of the check engine, from the entry point (functions/api.ts).
 */
export const telegramWebhookRouter = (deps: IncidentDeps) =>
  new Router().post(TELEGRAM_WEBHOOK_PATH, (req) => handleTelegramUpdate(req.body, req.requestId, deps), {
    access: apiKeyAccess(
      async (secret) => ((await isTelegramWebhookSecret(secret)) ? { id: 'telegram' } : undefined),
      // Counted per Telegram account by the service (WEBHOOK_BUDGETS), not per this one shared secret.
      null,
      // Wrong secrets are guesses: an address that keeps sending them is refused for the window.
      { rule: REFUSED_SECRETS, clientOf: clientIp },
      { header: TELEGRAM_SECRET_HEADER },
    ),
    body: TelegramUpdate,
    maxBodyBytes: TELEGRAM_UPDATE_MAX_BYTES,
    // A machine caller: a press is audited as the console user it acts for (service.ts).
    audit: false,
  });

/** The signed-in user's own Telegram link (Settings): a viewer links and unlinks its own too. */
export const telegramLinkRouter = new Router()
  .get('/telegram/link', (req) => linkOf(req.user))
  .post('/telegram/link-code', (req) => newLinkCode(req.user), { role: 'viewer', rateLimit: LINK_CODE_LIMIT })
  .delete('/telegram/link', (req) => unlink(req.user), { role: 'viewer' });
