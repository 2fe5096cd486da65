import {
  BankWebhookBody,
  INBOUND_BANK_WEBHOOK_MAX_BYTES,
  INBOUND_BANK_WEBHOOK_PATH,
} from '../../../shared/schemas/bankWebhook.js';
import { clientIp } from '../../auth/clientIp.js';
import { apiKeyHash } from '../../bank/apiKeyHash.js';
import { bankRuntime } from '../../bank/runtime.js';
import type { StoredBankAccount } from '../../bank/store.js';
import { type ApiKeyCaller, apiKeyAccess, Router } from '../../lib/http/router.js';
import type { RateLimitRule } from '../../lib/rateLimit.js';
import { recordInbound } from './recordInbound.js';

/** Calls per API key per minute: a bank pushes a statement or two a second at the most. */
export const INBOUND_RATE_LIMIT: RateLimitRule = {
  name: 'bank-webhook',
  limit: Number(process.env.BANK_WEBHOOK_RATE_LIMIT ?? 120),
  windowSeconds: 60,
};

/**
 * Refused keys per client address, as failed logins are counted (functions/auth/throttlePolicy.ts:
 * 10 in 15 minutes): past it every call from that address answers 429 until the window ends.
 */
export const INBOUND_KEY_FAILURES: RateLimitRule = {
  name: 'bank-webhook-key-ip',
  limit: Number(process.env.BANK_WEBHOOK_KEY_FAILURES ?? 10),
  windowSeconds: 15 * 60,
};

/** The caller (rate-limited) is the key itself; the accounts that hold it come along to the route. */
interface KeyHolder extends ApiKeyCaller {
  accounts: StoredBankAccount[];
}

/**
 * The key is good when an enabled account holds it: a disabled (or Incorrect, Locked, Wrong)
 * account's key is refused exactly as an unknown one, with the same answer after the same read.
 */
async function verify(key: string): Promise<KeyHolder | undefined> {
  const hash = apiKeyHash(key);
  const accounts = await bankRuntime().store.enabledAccountsByKeyHash(hash);
  return accounts.length ? { id: hash, accounts } : undefined;
}

/**
 * POST /webhook/bank (outside /api/v1): a statement or balance pushed by the bank side, with the
 * account's api_key in X-API-Key. 401 / 429 from the api-key access kind (refused keys throttled
 * per address), 413 over 64 KB, 400 naming the field; nothing is written on any of them.
 */
export const inboundBankWebhookRouter = new Router().post(
  INBOUND_BANK_WEBHOOK_PATH,
  (req) => recordInbound(bankRuntime(), (req.caller as KeyHolder).accounts, req.body),
  {
    access: apiKeyAccess(verify, INBOUND_RATE_LIMIT, { rule: INBOUND_KEY_FAILURES, clientOf: clientIp }),
    body: BankWebhookBody,
    maxBodyBytes: INBOUND_BANK_WEBHOOK_MAX_BYTES,
    // A machine caller: its calls are the statements themselves, not an operator's action.
    audit: false,
  },
);
