import type { RouteAudit, RouteRateLimit } from '../lib/http/router.js';
import { decryptSecret, SecretDecryptError } from '../lib/secrets/index.js';
import { REVEAL_RATE_LIMIT } from '../lib/secrets/revealRateLimit.js';
import { bankSecretContext } from './entities.js';
import { BankAccountNotFoundError, BankSecretUnreadableError } from './errors.js';
import type { BankStore } from './store.js';

export type RevealedField = 'pwd' | 'api_key';

/** Reads that hand out a secret are audited like writes, refusals included (declared on the route). */
export const revealAudit = (field: RevealedField | 'webhook_secret', action = 'reveal'): RouteAudit => ({
  action: `bank_account.${field}.${action}`,
  target: 'bank_account',
});

/** The reveal budget every secret shares (one per user), declared on each reveal route. */
export const REVEAL_LIMIT: RouteRateLimit = { rule: REVEAL_RATE_LIMIT, what: 'secret reveals' };

/**
 * GET /bank/bank-account/{id}/pwd and /api-key: the one way a bank password or API key leaves the
 * server, one at a time. Rate limited with every other reveal (REVEAL_LIMIT on the route) and
 * audited by the API's audit step, never with the value.
 */
export async function revealBankSecret(
  store: BankStore,
  id: number,
  field: RevealedField,
): Promise<{ id: number; pwd?: string; api_key?: string }> {
  const account = await store.getAccountWithSecrets(id);
  if (!account) throw new BankAccountNotFoundError(id);
  const cipher = field === 'pwd' ? account.pwd_enc : account.api_key_enc;
  if (!cipher) return { id, [field]: '' };
  const value = await decryptSecret(cipher, bankSecretContext(id, field)).catch((error) => {
    if (error instanceof SecretDecryptError) throw new BankSecretUnreadableError(id, field, error);
    throw error;
  });
  return { id, [field]: value };
}
