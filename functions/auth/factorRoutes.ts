import { SecondFactorBody, TotpCodeBody, TotpConfirmBody, TotpStartBody } from '../../shared/schemas/auth.js';
import { bearerToken } from '../lib/http/apiHandler.js';
import { type Request, Router } from '../lib/http/router.js';
import { authenticate } from './authenticate.js';
import { clientIp } from './clientIp.js';
import { sessionPassword } from './currentPassword.js';
import { AUTH_LIMITS, enforceRateLimits } from './rateLimits.js';
import { SessionExpiredError } from './errors.js';
import {
  confirmTotpEnrolment,
  enrollingUser,
  myFactors,
  regenerateRecoveryCodes,
  removeOwnTotp,
  resetFactors,
  secondFactorSignIn,
  startTotp,
} from './factors.js';

/**
 * The caller of a route a session or an enrolment ticket may call: the ticket's user when the body
 * names one (no token exists before enrolment), else the session's user, checked as every signed-in
 * route checks it (a missing or ended session is the usual 401).
 */
async function enroller(req: Request<{ ticket?: string }>) {
  if (req.body.ticket) {
    const user = await enrollingUser(req.body.ticket, undefined);
    req.setActor?.({ id: user.id, username: user.username });
    return user;
  }
  const token = bearerToken(req.headers);
  if (!token) throw new SessionExpiredError();
  const caller = await authenticate(token);
  req.setActor?.(caller);
  return enrollingUser(undefined, caller);
}

/**
 * The second factor (docs/sign-in.md): the second step of sign-in, TOTP enrolment (with a session,
 * or the ticket of an enrol answer), removal, recovery codes, the factors screen, and a super's
 * reset. Every write is audited by the API (codes, tickets, secrets and recovery codes are left out
 * of the rows: functions/audit/snapshot.ts).
 */
export const factorRouter = new Router()
  .post('/login/second-factor', (req) => secondFactorSignIn(req.body, clientIp(req), req.setActor), {
    access: 'public',
    body: SecondFactorBody,
    audit: { action: 'second_factor.sign_in', target: 'login' },
  })
  .post(
    '/me/totp',
    async (req) => {
      const user = await enroller(req);
      // The ticket came from the password step; a session must give the password again.
      if (!req.body.ticket) await sessionPassword(user, req.body.password, clientIp(req), 'totp_start');
      await enforceRateLimits([[AUTH_LIMITS.totpStartPerUser, String(user.id)]]);
      return startTotp(user);
    },
    {
      access: 'public',
      body: TotpStartBody,
      audit: { action: 'totp.start', target: 'totp' },
    },
  )
  .post(
    '/me/totp/confirm',
    async (req) =>
      confirmTotpEnrolment(await enroller(req), req.body.code, { ip: clientIp(req), ticket: req.body.ticket }),
    { access: 'public', body: TotpConfirmBody, audit: { action: 'totp.enroll', target: 'totp' } },
  )
  .delete('/me/totp', (req) => removeOwnTotp(req.user, req.body.code, clientIp(req)), {
    role: 'viewer',
    body: TotpCodeBody,
    audit: { action: 'totp.remove', target: 'totp' },
  })
  .post('/me/recovery-codes', (req) => regenerateRecoveryCodes(req.user, req.body.code, clientIp(req)), {
    role: 'viewer',
    body: TotpCodeBody,
    audit: { action: 'recovery_codes.regenerate', target: 'recovery_codes' },
  })
  .get('/me/factors', ({ user }) => myFactors(user))
  .post('/super/users/:id/factors/reset', (req) => resetFactors(req.user, req.params.id, clientIp(req)), {
    access: 'super',
    audit: { action: 'user.factors.reset', target: 'user' },
  });
