import { TooManyRequestsError } from '../lib/errors.js';
import type { Request, RouteAudit } from '../lib/http/router.js';
import { hitRateLimit } from '../lib/rateLimit.js';
import { decryptSecret, SecretDecryptError } from '../lib/secrets/index.js';
import { REVEAL_RATE_LIMIT } from '../sites/revealPassword.js';
import { BankAccountNotFoundError, BankSecretUnreadableError } from './errors.js';
import { bankStore } from './store.js';

export type BankSecretField = 'pwd' | 'api_key';

/** Reads that hand out a secret are audited like writes, refusals included (declared on the route). */
export const revealAudit = (field: BankSecretField): RouteAudit => ({
  action: `bank_account.${field}.reveal`,
  target: 'bank_account',
});

/**
 * GET /bank/bank-account/{id}/pwd and /api-key: the one way a bank password or API key leaves the
 * server, one at a time. Shares the reveal rate limit of site passwords (one budget per user for
 * every secret) and is audited by the API's audit step, never with the value.
 */
export async function revealBankSecret(
  req: Request,
  id: number,
  field: BankSecretField,
): Promise<{ id: number; pwd?: string; api_key?: string }> {
  const rate = await hitRateLimit(REVEAL_RATE_LIMIT, `user#${req.user.id}`);
  if (!rate.allowed) {
    throw new TooManyRequestsError(
      `Too many secret reveals; try again in ${rate.retryAfterSeconds} s`,
      rate.retryAfterSeconds,
    );
  }
  const account = await bankStore().getAccountWithSecrets(id);
  if (!account) throw new BankAccountNotFoundError(id);
  const cipher = field === 'pwd' ? account.pwd_enc : account.api_key_enc;
  if (!cipher) return { id, [field]: '' };
  const value = await decryptSecret(cipher, { entity: 'bank_account', id, field }).catch((error) => {
    if (error instanceof SecretDecryptError) throw new BankSecretUnreadableError(id, field, error);
    throw error;
  });
  return { id, [field]: value };
}
