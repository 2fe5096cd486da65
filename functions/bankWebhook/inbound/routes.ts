import {
  BankWebhookBody,
  INBOUND_BANK_WEBHOOK_MAX_BYTES,
  INBOUND_BANK_WEBHOOK_PATH,
} from '../../../shared/schemas/bankWebhook.js';
import type { StoredBankAccount } from '../../bank/store.js';
import { type ApiKeyCaller, apiKeyAccess, Router } from '../../lib/http/router.js';
import { apiKeyHash } from '../apiKeyHash.js';
import { deliveryStore } from '../store.js';
import { recordInbound } from './recordInbound.js';

/** Calls per API key per minute: a bank pushes a statement or two a second at the most. */
export const INBOUND_RATE_LIMIT = {
  name: 'bank-webhook',
  limit: Number(process.env.BANK_WEBHOOK_RATE_LIMIT ?? 120),
  windowSeconds: 60,
};

/** The caller (rate-limited) is the key itself; the accounts that hold it come along to the route. */
interface KeyHolder extends ApiKeyCaller {
  accounts: StoredBankAccount[];
}

/** The key is good when an account holds it. */
async function verify(key: string): Promise<KeyHolder | undefined> {
  const hash = apiKeyHash(key);
  const accounts = await deliveryStore().accountsByKeyHash(hash);
  return accounts.length ? { id: hash, accounts } : undefined;
}

/**
 * POST /webhook/bank (outside /api/v1): a statement or balance pushed by the bank side, with the
 * account's api_key in X-API-Key. 401 / 429 from the api-key access kind, 413 over 64 KB, 400
 * naming the field; nothing is written on any of them.
 */
export const inboundBankWebhookRouter = new Router().post(
  INBOUND_BANK_WEBHOOK_PATH,
  (req) => recordInbound((req.caller as KeyHolder).accounts, req.body),
  {
    access: apiKeyAccess(verify, INBOUND_RATE_LIMIT),
    body: BankWebhookBody,
    maxBodyBytes: INBOUND_BANK_WEBHOOK_MAX_BYTES,
    // A machine caller: its calls are the statements themselves, not an operator's action.
    audit: false,
  },
);
