import type { RouteAudit, RouteRateLimit } from '../lib/http/router.js';
import { decryptSecret, SecretDecryptError } from '../lib/secrets/index.js';
import { REVEAL_RATE_LIMIT } from '../lib/secrets/revealRateLimit.js';
import { SiteAccountNotFoundError, SiteAccountPasswordUnreadableError } from './errors.js';
import { siteStore } from './store.js';

export const SITE_ACCOUNT_PWD = 'site_account.pwd.reveal';
/** A read that hands out a secret is audited like a write, refusals included (the route declares it). */
export const REVEAL_AUDIT: RouteAudit = { action: SITE_ACCOUNT_PWD, target: 'site_account' };
/** The reveal budget every secret shares, declared on the route (the pipeline counts it). */
export const REVEAL_LIMIT: RouteRateLimit = { rule: REVEAL_RATE_LIMIT, what: 'password reveals' };

/**
 * GET /sites/accounts/{id}/pwd: the one way a site account's password leaves the server. Rate
 * limited per user (REVEAL_LIMIT on the route) and audited by the API's audit step (row and
 * security log line, never the value; REVEAL_AUDIT on the route); refusals are audited too, so a
 * user hammering it shows up.
 */
export async function revealAccountPassword(id: number): Promise<{ id: number; pwd: string }> {
  const account = await siteStore().getAccount(id);
  if (!account) throw new SiteAccountNotFoundError(id);
  const pwd = await decryptSecret(account.pwd_enc, { entity: 'site_account', id, field: 'pwd' }).catch((error) => {
    if (error instanceof SecretDecryptError) throw new SiteAccountPasswordUnreadableError(id, error);
    throw error;
  });
  return { id, pwd };
}
