import { TooManyRequestsError } from '../lib/errors.js';
import type { Request, RouteAudit } from '../lib/http/router.js';
import { hitRateLimit, type RateLimitRule } from '../lib/rateLimit.js';
import { decryptSecret, SecretDecryptError } from '../lib/secrets/index.js';
import { SiteAccountNotFoundError, SiteAccountPasswordUnreadableError } from './errors.js';
import { siteStore } from './store.js';

/**
 * Reveals per user per minute. Enough to look up the passwords an operator is working with;
 * too few to walk the whole account list (that is what lists without passwords are for).
 */
export const REVEAL_RATE_LIMIT: RateLimitRule = {
  name: 'reveal-secret',
  limit: Number(process.env.REVEAL_RATE_LIMIT ?? 10),
  windowSeconds: 60,
};

export const SITE_ACCOUNT_PWD = 'site_account.pwd.reveal';
/** A read that hands out a secret is audited like a write, refusals included (the route declares it). */
export const REVEAL_AUDIT: RouteAudit = { action: SITE_ACCOUNT_PWD, target: 'site_account' };

/**
 * GET /sites/accounts/{id}/pwd: the one way a site account's password leaves the server. Rate
 * limited per user and audited by the API's audit step (row and security log line, never the
 * value; REVEAL_AUDIT on the route); refusals are audited too, so a user hammering it shows up.
 */
export async function revealAccountPassword(req: Request, id: number): Promise<{ id: number; pwd: string }> {
  const rate = await hitRateLimit(REVEAL_RATE_LIMIT, `user#${req.user.id}`);
  if (!rate.allowed) {
    throw new TooManyRequestsError(
      `Too many password reveals; try again in ${rate.retryAfterSeconds} s`,
      rate.retryAfterSeconds,
    );
  }
  const account = await siteStore().getAccount(id);
  if (!account) throw new SiteAccountNotFoundError(id);
  const pwd = await decryptSecret(account.pwd_enc, { entity: 'site_account', id, field: 'pwd' }).catch((error) => {
    if (error instanceof SecretDecryptError) throw new SiteAccountPasswordUnreadableError(id, error);
    throw error;
  });
  return { id, pwd };
}
