import { SSO_CALLBACK_PATH, SSO_QUERY, SsoClientSecretBody, SsoLoginBody } from '../../shared/schemas/sso.js';
import { clientIp } from '../auth/clientIp.js';
import { enforceRateLimits } from '../auth/rateLimits.js';
import { config } from '../lib/config.js';
import type { RateLimitRule } from '../lib/rateLimit.js';
import { RawReply, type Request, Router } from '../lib/http/router.js';
import {
  errorCodeOf,
  finishSsoCallback,
  loginPageUrl,
  readClientSecretState,
  redeemSsoCode,
  SSO_COOKIE,
  saveClientSecret,
  ssoStatus,
  startSsoSignIn,
} from './service.js';

/**
 * Sign-ins started per client address: each writes a pending record and may fetch the provider's
 * discovery document, so a loop of them must not cost without bound.
 */
const SSO_START_LIMIT: RateLimitRule = { name: 'sso-start-ip', limit: 30, windowSeconds: 600 };
/** Codes redeemed per client address: a code is 256 random bits, this only keeps a flood short. */
const SSO_REDEEM_LIMIT: RateLimitRule = { name: 'sso-redeem-ip', limit: 30, windowSeconds: 600 };

// The whole API: the callback and POST /login/sso both check it (HttpOnly, so only they read it).
const COOKIE_PATH = '/api/v1';
const secure = () => (config.publicUrl.startsWith('https:') ? '; Secure' : '');
/** Lax: the provider's redirect back is a top-level GET, which Lax cookies go along with. */
const bindingCookie = (value: string) =>
  `${SSO_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=600; HttpOnly; SameSite=Lax${secure()}`;
const clearedCookie = () => `${SSO_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure()}`;

/** A cookie's value: from payload 2.0's `cookies`, or a Cookie header where a client sent one. */
function cookieOf(req: Request, name: string): string | undefined {
  const pairs = req.event.cookies ?? (req.headers.cookie ?? '').split(/;\s*/);
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

const redirect = (location: string, cookie?: string) =>
  new RawReply(302, '', { location, ...(cookie ? { 'set-cookie': cookie } : {}), 'cache-control': 'no-store' });

/**
 * Single sign-on (docs/sign-in.md). The browser calls start and callback itself (redirects, not
 * fetches): each answers a redirect, its failures too, as the login page's `sso_error`.
 */
export const ssoRouter = new Router()
  .get('/auth/sso', () => ssoStatus(), { access: 'public' })
  .get(
    '/auth/oidc/start',
    async (req) => {
      try {
        const ip = clientIp(req);
        await enforceRateLimits([[SSO_START_LIMIT, ip]]);
        const { location, browser } = await startSsoSignIn(ip);
        return redirect(location, bindingCookie(browser));
      } catch (error) {
        return redirect(loginPageUrl({ error: errorCodeOf(error) }), clearedCookie());
      }
    },
    { access: 'public' },
  )
  .get(
    SSO_CALLBACK_PATH,
    async (req) => {
      const location = await finishSsoCallback(req.query, cookieOf(req, SSO_COOKIE), clientIp(req));
      // On success the cookie stays for POST /login/sso, which checks and clears it.
      return redirect(location, location.includes(`${SSO_QUERY.code}=`) ? undefined : clearedCookie());
    },
    { access: 'public' },
  )
  .post(
    '/login/sso',
    async (req) => {
      const ip = clientIp(req);
      await enforceRateLimits([[SSO_REDEEM_LIMIT, ip]]);
      const browser = cookieOf(req, SSO_COOKIE);
      req.setHeader('set-cookie', clearedCookie());
      return redeemSsoCode(req.body.code, browser, ip);
    },
    { access: 'public', body: SsoLoginBody },
  )
  .get('/super/sso/client-secret', () => readClientSecretState(), { access: 'super' })
  .put('/super/sso/client-secret', ({ user, body }) => saveClientSecret(user, body), {
    access: 'super',
    body: SsoClientSecretBody,
    audit: { action: 'sso.client_secret.update', target: 'sso' },
  });
