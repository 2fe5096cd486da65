import type { AuthUser } from '../lib/http/router.js';
import { userCredentials } from '../users/service.js';
import { AccountDisabledError, SessionExpiredError } from './errors.js';
import { verifyToken } from './token.js';

/**
 * The caller behind a Bearer token, for every non-public route: a valid signature, not
 * expired, a user that still exists and is enabled, and a token version equal to the
 * stored one (logout and password changes bump it). Anything else is a 401.
 */
export async function authenticate(token: string): Promise<AuthUser> {
  const claims = await verifyToken(token);
  const user = await userCredentials(claims.sub);
  if (!user || (user.token_version ?? 0) !== claims.ver) throw new SessionExpiredError();
  if (user.enabled === false) throw new SessionExpiredError({ cause: new AccountDisabledError() });
  return { id: user.id, username: user.username, nickname: user.nickname, role: user.role };
}
