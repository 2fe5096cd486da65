import type { RevealedWebhookSecret } from '../../shared/schemas/bankWebhook.js';
import { bankSecretContext } from '../bank/entities.js';
import { BankAccountNotFoundError } from '../bank/errors.js';
import type { BankStore, StoredBankAccount } from '../bank/store.js';
import { decryptSecret, encryptSecret } from '../lib/secrets/index.js';
import { generateWebhookSecret } from './signing.js';

/**
 * The account's signing secret, made on first use: an account created before signing existed
 * gets one at its first delivery or reveal. Of two callers making one at once, the first write
 * wins and the other reads it back.
 */
export async function webhookSecretOf(
  account: Pick<StoredBankAccount, 'id' | 'webhook_secret_enc'>,
  store: BankStore,
): Promise<string> {
  const context = bankSecretContext(account.id, 'webhook_secret');
  if (account.webhook_secret_enc) return decryptSecret(account.webhook_secret_enc, context);
  const secret = generateWebhookSecret();
  if (await store.setWebhookSecret(account.id, await encryptSecret(secret, context), true)) return secret;
  const again = await store.getAccountWithSecrets(account.id, { consistent: true });
  if (!again?.webhook_secret_enc) throw new BankAccountNotFoundError(account.id);
  return decryptSecret(again.webhook_secret_enc, context);
}

/** GET /bank/bank-account/{id}/webhook-secret: the audited reveal, within the reveal budget (route options). */
export async function revealWebhookSecret(store: BankStore, id: number): Promise<RevealedWebhookSecret> {
  const account = await store.getAccountWithSecrets(id);
  if (!account) throw new BankAccountNotFoundError(id);
  return { id, webhook_secret: await webhookSecretOf(account, store) };
}

/** POST /bank/bank-account/{id}/webhook-secret: a new secret, in force for the next delivery; returned once. */
export async function rotateWebhookSecret(store: BankStore, id: number): Promise<RevealedWebhookSecret> {
  const account = await store.getAccount(id);
  if (!account) throw new BankAccountNotFoundError(id);
  const secret = generateWebhookSecret();
  await store.setWebhookSecret(id, await encryptSecret(secret, bankSecretContext(id, 'webhook_secret')), false);
  return { id, webhook_secret: secret };
}
