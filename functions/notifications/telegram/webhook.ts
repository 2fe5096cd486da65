import { randomBytes, timingSafeEqual } from 'node:crypto';
import { TELEGRAM_WEBHOOK_PATH, type TelegramWebhookState } from '../../../shared/schemas/telegram.js';
import { cachedFor } from '../../lib/cachedFor.js';
import { config } from '../../lib/config.js';
import { logger } from '../../lib/logger.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets/index.js';
import { TOKEN_CONTEXT, telegramSettingsStore, WEBHOOK_SECRET_CONTEXT } from './settingsStore.js';
import { answerReason, setWebhook, TelegramUnavailableError } from './telegramClient.js';

// The bot's webhook (docs/notifications.md "Buttons and linking"): Telegram delivers button presses
// and messages to PUBLIC_URL/webhook/telegram, with a secret the product made in the
// X-Telegram-Bot-Api-Secret-Token header. The secret is stored encrypted beside the token, made
// once at the first save with a token, and registered with setWebhook at every save.

/** Where Telegram is told to deliver: the console's public URL (CloudFront in the cloud). */
export const telegramWebhookUrl = () => `${config.publicUrl.replace(/\/+$/, '')}${TELEGRAM_WEBHOOK_PATH}`;

/** 256 bits in the webhook secret's alphabet (A-Z a-z 0-9 _ -). */
const newSecret = () => randomBytes(32).toString('base64url');

/**
 * Registers the webhook with Telegram (setWebhook) when a token is stored, making the secret first
 * when there is none, and records how it went (shown on the TG page). Never throws for Telegram's
 * refusal or silence: the settings are saved either way, and the page says what failed.
 */
export async function registerTelegramWebhook(now = Date.now()): Promise<TelegramWebhookState> {
  const store = telegramSettingsStore();
  const settings = await store.withToken();
  if (!settings?.bot_token_enc) {
    const state: TelegramWebhookState = { state: 'unknown', url: null, reason: null, at: null };
    if (settings) await store.setWebhook({ webhook: state });
    return state;
  }
  let secretEnc = settings.webhook_secret_enc ?? null;
  if (!secretEnc) secretEnc = await encryptSecret(newSecret(), WEBHOOK_SECRET_CONTEXT);
  const [token, secret] = await Promise.all([
    decryptSecret(settings.bot_token_enc, TOKEN_CONTEXT),
    decryptSecret(secretEnc, WEBHOOK_SECRET_CONTEXT),
  ]);
  const url = telegramWebhookUrl();
  let state: TelegramWebhookState;
  try {
    const answer = await setWebhook({ token, url, secretToken: secret });
    state = answer.ok
      ? { state: 'ok', url, reason: null, at: now }
      : { state: 'failed', url, reason: answerReason(answer), at: now };
  } catch (error) {
    if (!(error instanceof TelegramUnavailableError)) throw error;
    state = { state: 'failed', url, reason: error.message, at: now };
  }
  if (state.state === 'failed') logger.warn('telegram webhook not registered', { url, reason: state.reason });
  await store.setWebhook({ webhook: state, webhook_secret_enc: secretEnc });
  webhookSecret.invalidate();
  return state;
}

/** The decrypted secret, kept a minute per process: every button press is checked against it. */
const webhookSecret = cachedFor(
  async () => {
    const enc = (await telegramSettingsStore().withToken())?.webhook_secret_enc;
    return enc ? decryptSecret(enc, WEBHOOK_SECRET_CONTEXT) : undefined;
  },
  { ttlMs: 60_000 },
);

/** Whether `given` is the webhook's secret, compared in constant time. */
export async function isTelegramWebhookSecret(given: string): Promise<boolean> {
  const secret = await webhookSecret.get();
  if (!secret) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The bot token, for the calls the webhook answers with; undefined when none is set. */
export async function telegramBotToken(): Promise<string | undefined> {
  const enc = (await telegramSettingsStore().withToken())?.bot_token_enc;
  return enc ? decryptSecret(enc, TOKEN_CONTEXT) : undefined;
}
