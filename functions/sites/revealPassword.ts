import { AuditOutcome } from '../../shared/schemas/audit.js';
import { recordAudit } from '../audit/service.js';
import { clientIp } from '../auth/clientIp.js';
import { TooManyRequestsError } from '../lib/errors.js';
import type { Request } from '../lib/http/router.js';
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

/**
 * GET /sites/accounts/{id}/pwd: the one way a site account's password leaves the server. Rate
 * limited per user and audited (row and security log line, never the value); refusals are
 * audited too, so a user hammering the endpoint shows up.
 */
export async function revealAccountPassword(req: Request, id: number): Promise<{ id: number; pwd: string }> {
  const actor = { actor_id: req.user.id, actor_name: req.user.username, client_ip: clientIp(req) };
  const target = `site_account#${id}`;
  const rate = await hitRateLimit(REVEAL_RATE_LIMIT, `user#${req.user.id}`);
  if (!rate.allowed) {
    await recordAudit({ ...actor, action: SITE_ACCOUNT_PWD, target, outcome: AuditOutcome.Refused, at: Date.now() });
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
  await recordAudit({ ...actor, action: SITE_ACCOUNT_PWD, target, outcome: AuditOutcome.Allowed, at: Date.now() });
  return { id, pwd };
}
