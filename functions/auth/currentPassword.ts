import { CURRENT_PASSWORD_REQUIRED } from '../../shared/schemas/auth.js';
import { ValidationError } from '../lib/errors.js';
import { logSecurityEvent } from '../lib/logger.js';
import { giveBackRateLimit, type RateLimitRule } from '../lib/rateLimit.js';
import { UserNotFoundError } from '../users/errors.js';
import { verifyPassword } from '../users/password.js';
import { userCredentials } from '../users/service.js';
import type { UserRecord } from '../users/userEntity.js';
import { WrongCurrentPasswordError } from './errors.js';
import { AUTH_LIMITS, enforceRateLimits } from './rateLimits.js';

/**
 * The current password asked again from a signed-in user before a change only its owner should
 * make: a new password (`POST /pwd`, `old_pwd`) and a new second factor (`POST /me/totp`,
 * `POST /me/passkeys/options`, `password`). A session alone may be someone else's at the owner's
 * desk, and a factor they added would outlive a password change (docs/sign-in.md).
 *
 * Each call takes a slot of the same limits, per user and per client address (5 and 20 per 15 min,
 * AUTH_LIMITS), before the hash is looked at (so parallel guesses count one by one), and a right
 * password gives them back: all three routes draw on one budget of wrong guesses, so a stolen
 * session guesses no faster by spreading them over the routes, and the owner is never held up.
 * A wrong password is 400 with the same text everywhere, on the body's own field, and a security
 * event names what was asked for.
 */
export async function confirmCurrentPassword(
  user: { id: number } | UserRecord,
  password: string,
  ctx: { ip: string; event: string; field: 'old_pwd' | 'password' },
): Promise<UserRecord> {
  const now = Date.now();
  const slots: [RateLimitRule, string][] = [
    [AUTH_LIMITS.pwdPerUser, String(user.id)],
    [AUTH_LIMITS.pwdPerClient, ctx.ip],
  ];
  await enforceRateLimits(slots, now);
  const stored = 'password_hash' in user ? user : await userCredentials(user.id);
  if (!stored) throw new UserNotFoundError(user.id);
  const event = { event: ctx.event, actor: user.id, target: `user#${user.id}`, client_ip: ctx.ip } as const;
  if (!(await verifyPassword(password, stored.password_hash))) {
    logSecurityEvent({ ...event, outcome: 'failure', reason: 'wrong current password' });
    throw new WrongCurrentPasswordError(ctx.field);
  }
  // The owner's own use spends nothing: a user may add several passkeys in a row.
  await Promise.all(slots.map(([rule, key]) => giveBackRateLimit(rule, key, now)));
  return stored;
}

/**
 * A factor set-up started from a session (`POST /me/totp`, `POST /me/passkeys/options`): the
 * password of the body, named as missing only here, once the session is known good, so a call
 * with neither is still the usual 401.
 */
export async function sessionPassword(
  user: { id: number } | UserRecord,
  password: string | undefined,
  ip: string,
  event: string,
): Promise<void> {
  if (!password) throw new ValidationError({ password: CURRENT_PASSWORD_REQUIRED });
  await confirmCurrentPassword(user, password, { ip, event, field: 'password' });
  logSecurityEvent({ event, actor: user.id, target: `user#${user.id}`, client_ip: ip, outcome: 'success' });
}
