import { ChangePasswordBody, LoginBody } from '../../shared/schemas/auth.js';
import { Router } from '../lib/http/router.js';
import { createCaptcha } from './captcha.js';
import { clientIp } from './clientIp.js';
import { changePassword, getProfile, login, logout } from './service.js';

/** Account and session calls (spec section 7). */
export const authRouter = new Router()
  .post('/login', (req) => login(req.body, clientIp(req)), { access: 'public', body: LoginBody })
  .get('/captcha', () => createCaptcha(), { access: 'public' })
  .post('/logout', ({ user }) => logout(user))
  .get('/info', ({ user }) => getProfile(user))
  .post('/pwd', ({ user, body }) => changePassword(user, body), { body: ChangePasswordBody });
