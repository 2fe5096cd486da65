import type { RevealedWebhookSecret } from '../../shared/schemas/bankWebhook.js';
import { TooManyRequestsError } from '../lib/errors.js';
import type { Request, RouteAudit } from '../lib/http/router.js';
import { hitRateLimit } from '../lib/rateLimit.js';
import { decryptSecret, encryptSecret } from '../lib/secrets/index.js';
import { REVEAL_RATE_LIMIT } from '../sites/revealPassword.js';
import { BankAccountNotFoundError } from '../bank/errors.js';
import type { StoredBankAccount } from '../bank/store.js';
import { generateWebhookSecret } from './signing.js';
import { type DeliveryStore, deliveryStore } from './store.js';

const context = (id: number) => ({ entity: 'bank_account', id, field: 'webhook_secret' });

/**
 * The account's signing secret, made on first use: an account created before signing existed
 * gets one at its first delivery or reveal. Of two callers making one at once, the first write
 * wins and the other reads it back.
 */
export async function webhookSecretOf(
  account: Pick<StoredBankAccount, 'id' | 'webhook_secret_enc'>,
  store: DeliveryStore = deliveryStore(),
): Promise<string> {
  if (account.webhook_secret_enc) return decryptSecret(account.webhook_secret_enc, context(account.id));
  const secret = generateWebhookSecret();
  if (await store.setWebhookSecret(account.id, await encryptSecret(secret, context(account.id)), true)) return secret;
  const again = await store.getAccount(account.id);
  if (!again?.webhook_secret_enc) throw new BankAccountNotFoundError(account.id);
  return decryptSecret(again.webhook_secret_enc, context(account.id));
}

export const webhookSecretAudit = (action: 'reveal' | 'rotate'): RouteAudit => ({
  action: `bank_account.webhook_secret.${action}`,
  target: 'bank_account',
});

async function limited(req: Request): Promise<void> {
  const rate = await hitRateLimit(REVEAL_RATE_LIMIT, `user#${req.user.id}`);
  if (!rate.allowed)
    throw new TooManyRequestsError(
      `Too many secret reveals; try again in ${rate.retryAfterSeconds} s`,
      rate.retryAfterSeconds,
    );
}

/** GET /bank/bank-account/{id}/webhook-secret: the audited reveal, sharing the reveal rate limit. */
export async function revealWebhookSecret(req: Request, id: number): Promise<RevealedWebhookSecret> {
  await limited(req);
  const account = await deliveryStore().getAccount(id);
  if (!account) throw new BankAccountNotFoundError(id);
  return { id, webhook_secret: await webhookSecretOf(account) };
}

/** POST /bank/bank-account/{id}/webhook-secret: a new secret, in force for the next delivery; returned once. */
export async function rotateWebhookSecret(req: Request, id: number): Promise<RevealedWebhookSecret> {
  await limited(req);
  const store = deliveryStore();
  const account = await store.getAccount(id);
  if (!account) throw new BankAccountNotFoundError(id);
  const secret = generateWebhookSecret();
  await store.setWebhookSecret(id, await encryptSecret(secret, context(id)), false);
  return { id, webhook_secret: secret };
}
