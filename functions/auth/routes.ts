import { ChangePasswordBody, LoginBody } from '../../shared/schemas/auth.js';
import { Router } from '../lib/http/router.js';
import { createCaptcha } from './captcha.js';
import { clientIp } from './clientIp.js';
import { AUTH_LIMITS, enforceRateLimits } from './rateLimits.js';
import { changePassword, getProfile, login, logout } from './service.js';

/** Account and session calls (spec section 7). */
export const authRouter = new Router()
  .post('/login', (req) => login(req.body, clientIp(req)), { access: 'public', body: LoginBody })
  .get(
    '/captcha',
    async (req) => {
      await enforceRateLimits([[AUTH_LIMITS.captchaPerClient, clientIp(req)]]);
      return createCaptcha();
    },
    { access: 'public' },
  )
  // A viewer changes nothing shared, but ends its own sessions and sets its own password.
  .post('/logout', ({ user }) => logout(user), { role: 'viewer' })
  .get('/info', ({ user }) => getProfile(user))
  // Limited per user and per client address with the factor set-ups that ask for it too (currentPassword.ts).
  .post('/pwd', (req) => changePassword(req.user, req.body, clientIp(req)), {
    body: ChangePasswordBody,
    role: 'viewer',
  });
