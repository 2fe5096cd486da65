import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import type { LoginAnswer } from '../../shared/schemas/auth.js';
import {
  SSO_CALLBACK_PATH,
  SSO_QUERY,
  type SsoClientSecretBody,
  type SsoClientSecretState,
  type SsoConfig,
  type SsoStatus,
} from '../../shared/schemas/sso.js';
import { AccountDisabledError } from '../auth/errors.js';
import { afterFirstFactor } from '../auth/signIn.js';
import { config } from '../lib/config.js';
import { PatrolError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';
import { logSecurityEvent, type SecurityOutcome } from '../lib/logger.js';
import { OutboundRequestError } from '../lib/net/guardedJsonRequest.js';
import { decryptSecret, encryptSecret, maskSecret } from '../lib/secrets/index.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { userCredentials, userForLogin } from '../users/service.js';
import type { UserRecord } from '../users/userEntity.js';
import {
  SsoCodeInvalidError,
  SsoFailedError,
  SsoNotConfiguredError,
  SsoProviderUnavailableError,
  SsoUnknownUserError,
} from './errors.js';
import { providerConfiguration } from './provider.js';
import { CLIENT_SECRET_CONTEXT, CODE_TTL_MS, hashOf, PENDING_TTL_MS, type SsoStore, ssoStore } from './store.js';

// Single sign-on with OpenID Connect, authorization code with PKCE, state and nonce (docs/sign-in.md):
//   1. GET /auth/oidc/start: a state, a nonce and a PKCE verifier are kept server-side under the
//      state (10 minutes, single-use), a random cookie binds them to this browser, and the browser
//      goes to the provider.
//   2. GET /auth/oidc/callback: the state is taken (used up), the cookie must match, openid-client
//      exchanges the code (PKCE verifier, nonce, the ID token's signature, issuer and audience), the
//      configured claim names the Patrol user. The browser goes back to the login page with a
//      one-time code (2 minutes, single-use): never a token in an address, where history, logs and
//      Referer headers keep it.
//   3. POST /login/sso {code}: what a password's first step answers (signIn.ts decides), with the
//      provider's MFA as the second factor only where the config says so and the claim shows it.

/** The cookie that binds a sign-in to the browser that started it. */
export const SSO_COOKIE = 'patrol_sso';
const API_BASE = '/api/v1';
const LOGIN_PAGE = '/auth/login';

const redirectUri = () => `${config.publicUrl.replace(/\/+$/, '')}${API_BASE}${SSO_CALLBACK_PATH}`;
const random = () => randomBytes(32).toString('base64url');

function audit(outcome: SecurityOutcome, reason: string, extra: Record<string, unknown> = {}): void {
  logSecurityEvent({ event: 'sso_login', actor: String(extra.actor ?? ''), outcome, reason, ...extra });
}

/** The settings in force, with the client secret; SsoNotConfiguredError when SSO is off or incomplete. */
async function activeSettings(store: SsoStore): Promise<{ sso: SsoConfig; clientSecret: string }> {
  const { sso } = await getSystemConfig();
  const stored = sso.enabled && sso.issuer && sso.client_id ? await store.clientSecret() : undefined;
  if (!stored) throw new SsoNotConfiguredError();
  return { sso, clientSecret: await decryptSecret(stored.secret_enc, CLIENT_SECRET_CONTEXT) };
}

/** GET /auth/sso (public): whether the login page shows the button, and its name. */
export async function ssoStatus(store = ssoStore()): Promise<SsoStatus> {
  const { sso } = await getSystemConfig();
  const on = sso.enabled && Boolean(sso.issuer && sso.client_id) && Boolean(await store.clientSecret());
  return { enabled: on, display_name: on ? sso.display_name : '' };
}

/** Where the login page is, with the callback's outcome in its query. */
export function loginPageUrl(outcome: { code: string } | { error: number }): string {
  const query = 'code' in outcome ? `${SSO_QUERY.code}=${outcome.code}` : `${SSO_QUERY.error}=${outcome.error}`;
  return `${config.publicUrl.replace(/\/+$/, '')}${LOGIN_PAGE}?${query}`;
}

/** The code of an error the login page can show; anything unexpected is SSO's generic failure. */
export const errorCodeOf = (error: unknown): number =>
  error instanceof PatrolError ? error.code : new SsoFailedError('unexpected').code;

/** Step 1: the provider's authorization URL and the browser-binding cookie's value. */
export async function startSsoSignIn(
  ip: string,
  store = ssoStore(),
  now = Date.now(),
): Promise<{ location: string; browser: string }> {
  const { sso, clientSecret } = await activeSettings(store);
  const configuration = await providerConfiguration(sso, clientSecret, now);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const browser = random();
  await store.putPending(state, {
    code_verifier: codeVerifier,
    nonce,
    browser_hash: hashOf(browser),
    issuer: sso.issuer,
    client_id: sso.client_id,
    valid_until: now + PENDING_TTL_MS,
  });
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(),
    scope: 'openid profile email',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  audit('success', 'started', { client_ip: ip });
  return { location: url.href, browser };
}

/** The Patrol username the ID token names, by the configured claim; undefined when it names none. */
function usernameOf(sso: SsoConfig, claims: oidc.IDToken): string | undefined {
  const value = claims[sso.username_claim];
  if (typeof value !== 'string' || !value.trim()) return undefined;
  // An address the provider has not verified proves nothing about who signs in.
  if (sso.username_claim === 'email' && claims.email_verified === false) return undefined;
  return value.trim();
}

/** The provider's MFA counts only where the config says so and the claim shows one of its values. */
export function mfaShown(sso: SsoConfig, claims: oidc.IDToken): boolean {
  if (sso.mfa_claim === 'amr')
    return Array.isArray(claims.amr) && claims.amr.some((v) => typeof v === 'string' && sso.mfa_values.includes(v));
  if (sso.mfa_claim === 'acr') return typeof claims.acr === 'string' && sso.mfa_values.includes(claims.acr);
  return false;
}

/**
 * Step 2: checks the provider's answer and hands back the login page's address with a one-time
 * code, or with the error code of the refusal. Every refusal is a security event.
 */
export async function finishSsoCallback(
  query: Record<string, string>,
  browser: string | undefined,
  ip: string,
  store = ssoStore(),
  now = Date.now(),
): Promise<string> {
  let actor = '';
  try {
    const { sso, clientSecret } = await activeSettings(store);
    const pending = query.state ? await store.takePending(query.state, now) : undefined;
    if (!pending) throw new SsoFailedError('unknown, used or expired state');
    if (!browser || hashOf(browser) !== pending.browser_hash)
      throw new SsoFailedError('callback from another browser than the one that started');
    if (pending.issuer !== sso.issuer || pending.client_id !== sso.client_id)
      throw new SsoFailedError('the provider settings changed during the sign-in');
    if (query.error) throw new SsoFailedError(`provider answered ${query.error.slice(0, 64)}`);
    const configuration = await providerConfiguration(sso, clientSecret, now);
    const current = new URL(redirectUri());
    for (const [k, v] of Object.entries(query)) current.searchParams.set(k, v);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: query.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      if (error instanceof OutboundRequestError) throw new SsoProviderUnavailableError({ cause: error });
      // A used or wrong code (invalid_grant), a nonce or signature that does not match.
      const detail = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : 'token exchange';
      throw new SsoFailedError(detail, { cause: error });
    }
    if (!claims) throw new SsoFailedError('no ID token');
    const username = usernameOf(sso, claims);
    actor = username ?? String(claims.sub);
    const user = username ? await userForLogin(username) : undefined;
    if (!user) throw new SsoUnknownUserError();
    if (user.enabled === false) throw new AccountDisabledError();
    const secondFactorDone = mfaShown(sso, claims);
    const code = random();
    await store.putCode(code, {
      user_id: user.id,
      second_factor_done: secondFactorDone,
      browser_hash: pending.browser_hash,
      valid_until: now + CODE_TTL_MS,
    });
    audit('success', 'provider signed in', {
      actor: user.username,
      user_id: user.id,
      client_ip: ip,
      second_factor_done: secondFactorDone,
    });
    return loginPageUrl({ code });
  } catch (error) {
    const reason = error instanceof SsoFailedError ? error.reason : error instanceof Error ? error.name : 'unknown';
    audit(error instanceof SsoProviderUnavailableError ? 'failure' : 'refused', reason, { actor, client_ip: ip });
    return loginPageUrl({ error: errorCodeOf(error) });
  }
}

/**
 * Step 3: the one-time code for what a first factor answers (the token, or the second step), in the
 * browser that went through the provider only: a code someone sends another person (to sign them
 * in as the sender, a login CSRF) is used up and refused.
 */
export async function redeemSsoCode(
  code: string,
  browser: string | undefined,
  ip: string,
  store = ssoStore(),
  now = Date.now(),
): Promise<LoginAnswer> {
  const taken = await store.takeCode(code, now);
  if (!taken) {
    audit('refused', 'unknown, used or expired code', { client_ip: ip });
    throw new SsoCodeInvalidError();
  }
  if (!browser || hashOf(browser) !== taken.browser_hash) {
    audit('refused', 'code redeemed in another browser than the one that signed in', {
      user_id: taken.user_id,
      client_ip: ip,
    });
    throw new SsoCodeInvalidError();
  }
  const user: UserRecord | undefined = await userCredentials(taken.user_id);
  // Disabled or removed in the two minutes since the callback.
  if (!user || user.enabled === false) {
    audit('refused', 'account disabled', { actor: user?.username ?? '', user_id: taken.user_id, client_ip: ip });
    throw new AccountDisabledError();
  }
  audit('success', 'code redeemed', { actor: user.username, user_id: user.id, client_ip: ip });
  return afterFirstFactor(user, { ip, via: 'oidc', secondFactorDone: taken.second_factor_done }, now);
}

/** GET /super/sso/client-secret: whether one is kept, and its mask. */
export async function readClientSecretState(store = ssoStore()): Promise<SsoClientSecretState> {
  const stored = await store.clientSecret();
  return { set: Boolean(stored), hint: stored?.hint ?? '', updated_at: stored?.updated_at ?? null };
}

/** PUT /super/sso/client-secret: encrypted before it is stored; '' removes it (SSO then stays off). */
export async function saveClientSecret(
  actor: AuthUser,
  body: SsoClientSecretBody,
  store = ssoStore(),
): Promise<SsoClientSecretState> {
  const secret = body.client_secret;
  await store.setClientSecret(
    secret
      ? {
          secret_enc: await encryptSecret(secret, CLIENT_SECRET_CONTEXT),
          hint: maskSecret(secret),
          updated_at: Date.now(),
          updated_by: { id: actor.id, nickname: actor.nickname },
        }
      : undefined,
  );
  logSecurityEvent({
    event: 'sso_client_secret',
    actor: actor.id,
    target: 'sso',
    outcome: 'success',
    reason: secret ? 'set' : 'cleared',
  });
  return readClientSecretState(store);
}
