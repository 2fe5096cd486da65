// Single sign-on with OpenID Connect (issue 43, item 2) against the stack's sandbox provider, a real
// oidc-provider: the browser's redirects are followed by hand (fetch with redirect: 'manual' and a
// cookie jar), so a test can stop at the callback and tamper with it as an attacker would.
import { generate } from 'otplib';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/envelope.js';
import { sandboxOidcPasswordFile } from '../../scripts/local/sandboxOidc.js';
import { SANDBOX_OIDC_CLIENT } from '../../scripts/sandbox/oidc/server.js';
import { login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
/** The stack's own sandbox password, generated into its DATA_DIR at start. */
const SANDBOX_OIDC_PASSWORD = readFileSync(sandboxOidcPasswordFile(stack.dataDir), 'utf8').trim();
const k = kit(stack);
const { client } = k;
const ISSUER = stack.env.SANDBOX_OIDC_URL;
const PASSWORD = 'sso-pass-123';

const SSO = {
  enabled: true,
  display_name: 'Sandbox SSO',
  issuer: ISSUER,
  client_id: SANDBOX_OIDC_CLIENT.id,
  username_claim: 'preferred_username',
  mfa_claim: 'off',
  mfa_values: [],
};

async function setSso(sso: Record<string, unknown>) {
  const token = await k.admin();
  for (let attempt = 0; attempt < 5; attempt++) {
    const { document } = (await client.get('/api/v1/super/system-config', { token })).body.data;
    const res = await client.post('/api/v1/super/system-config', { token, body: { ...document, sso } });
    // Another file saving the config at the same moment: read again and retry.
    if (res.status === 409) continue;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return;
  }
  throw new Error('system config kept changing');
}

/** The cookies a browser keeps for the provider (host-wide, as browsers keep them). */
class Jar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

async function go(url: string, jar: Jar, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.take(res);
  return res;
}

/**
 * A browser through start and the provider's form, stopped at the redirect back to Patrol: the
 * callback URL and the browser's cookies (with Patrol's binding cookie).
 */
async function throughProvider(login: string, options: { mfa?: boolean } = {}) {
  const jar = new Jar();
  let res = await go(`${stack.url}/api/v1/auth/oidc/start`, jar);
  expect(res.status).toBe(302);
  let location = new URL(res.headers.get('location') ?? '', stack.url).href;
  expect(location.startsWith(ISSUER), location).toBe(true);
  const authorize = new URL(location);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('nonce')).toBeTruthy();
  for (let hops = 0; hops < 10; hops++) {
    if (location.startsWith(`${stack.url}/api/v1/auth/oidc/callback`)) return { callback: location, jar };
    res = await go(location, jar);
    if (res.status === 200 && /\/interaction\/[^/]+$/.test(new URL(location).pathname)) {
      const html = await res.text();
      expect(html).toContain('Sandbox identity provider');
      const form = new URLSearchParams({
        login,
        password: SANDBOX_OIDC_PASSWORD,
        ...(options.mfa ? { mfa: '1' } : {}),
      });
      res = await go(`${location}/login`, jar, {
        method: 'POST',
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    }
    expect([302, 303], `${location}: ${res.status}`).toContain(res.status);
    location = new URL(res.headers.get('location') ?? '', location).href;
  }
  throw new Error('the provider never sent the browser back');
}

/** The callback as the browser calls it: where it sends the browser next (the login page). */
async function callback(url: string, jar: Jar | undefined) {
  const res = await fetch(url, { redirect: 'manual', headers: jar ? { cookie: jar.header() } : {} });
  expect(res.status).toBe(302);
  const next = new URL(res.headers.get('location') ?? '');
  expect(next.pathname).toBe('/auth/login');
  return { code: next.searchParams.get('sso_code'), error: Number(next.searchParams.get('sso_error')) || null };
}

/** POST /login/sso as the page sends it: in the browser that went through the provider (its cookie). */
const redeem = (code: string, jar: Jar | undefined) =>
  client.post('/api/v1/login/sso', { body: { code }, headers: jar ? { cookie: jar.header() } : {} });

beforeAll(async () => {
  expect(ISSUER, 'the stack runs the sandbox provider').toBeTruthy();
  const token = await k.admin();
  const res = await client.put('/api/v1/super/sso/client-secret', {
    token,
    body: { client_secret: SANDBOX_OIDC_CLIENT.secret },
  });
  expect(res.status).toBe(200);
  await setSso(SSO);
});

// The shared stack's login page goes back to showing no SSO button.
afterAll(async () => {
  await setSso({ ...SSO, enabled: false });
  k.destroy();
});

describe('single sign-on', () => {
  it('says on the public status call that SSO is on, and its name', async () => {
    const res = await client.get('/api/v1/auth/sso');
    expect(res.body.data).toEqual({ enabled: true, display_name: 'Sandbox SSO' });
  });

  it('signs a known user in with the role Patrol gives it, through a one-time code', async () => {
    const username = uniqueName('sso');
    await k.createUser(username, PASSWORD, 'viewer');
    const { callback: url, jar } = await throughProvider(username);
    expect(jar.get('patrol_sso'), 'the browser-binding cookie').toBeTruthy();
    const back = await callback(url, jar);
    expect(back.error).toBeNull();
    expect(back.code).toMatch(/^[\w-]{40,}$/);

    const res = await redeem(back.code as string, jar);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ jwt: expect.any(String), s: 'viewer', name: `Nick ${username}` });
    const info = await client.get('/api/v1/info', { token: res.body.data.jwt });
    expect(info.body.data).toMatchObject({ username, role: 'viewer' });

    // The code signs in once.
    const again = await redeem(back.code as string, jar);
    expect(again).toMatchObject({ status: 400, body: { code: ErrorCode.SsoCodeInvalid } });
  });

  it('matches the provider name to the Patrol username whatever its case', async () => {
    // The sandbox's operator1 is 'Operator1' at the provider.
    const created = await client.post('/api/v1/super/users', {
      token: await k.admin(),
      body: { username: 'operator1', password: PASSWORD, role: 'operator' },
    });
    expect([200, 409]).toContain(created.status);
    const { callback: url, jar } = await throughProvider('operator1');
    const back = await callback(url, jar);
    const res = await redeem(back.code as string, jar);
    expect(res.body.data).toMatchObject({ jwt: expect.any(String), s: expect.any(String) });
  });

  it('refuses a user Patrol does not know, with a clear message, and creates none', async () => {
    const { callback: url, jar } = await throughProvider('stranger');
    const back = await callback(url, jar);
    expect(back).toEqual({ code: null, error: ErrorCode.SsoUnknownUser });
    const users = await client.get('/api/v1/super/users?keyword=stranger&keywordField=username', {
      token: await k.admin(),
    });
    expect(JSON.stringify(users.body.data)).not.toContain('"stranger"');
  });

  it('refuses a disabled user', async () => {
    const username = uniqueName('ssooff');
    const id = await k.createUser(username, PASSWORD);
    await client.put(`/api/v1/super/users/${id}`, { token: await k.admin(), body: { enabled: false } });
    const { callback: url, jar } = await throughProvider(username);
    expect((await callback(url, jar)).error).toBe(ErrorCode.Forbidden);
  });

  it('refuses a wrong state, and a callback from a browser that did not start the sign-in', async () => {
    const username = uniqueName('ssostate');
    await k.createUser(username, PASSWORD);
    const { callback: url, jar } = await throughProvider(username);
    const forged = new URL(url);
    forged.searchParams.set('state', 'not-the-state-patrol-sent');
    expect((await callback(forged.href, jar)).error).toBe(ErrorCode.SsoFailed);
    // Someone else's browser (no binding cookie) with the right state: refused, and the state is used up.
    expect((await callback(url, undefined)).error).toBe(ErrorCode.SsoFailed);
    expect((await callback(url, jar)).error).toBe(ErrorCode.SsoFailed);
  });

  it('refuses a code sent to another browser (a login CSRF), and uses it up', async () => {
    const username = uniqueName('ssocsrf');
    await k.createUser(username, PASSWORD);
    const { callback: url, jar } = await throughProvider(username);
    const back = await callback(url, jar);
    // The victim's browser has no cookie of this sign-in (or one of its own).
    const stranger = new Jar();
    await go(`${stack.url}/api/v1/auth/oidc/start`, stranger);
    expect(await redeem(back.code as string, stranger)).toMatchObject({
      status: 400,
      body: { code: ErrorCode.SsoCodeInvalid },
    });
    expect(await redeem(back.code as string, undefined)).toMatchObject({
      status: 400,
      body: { code: ErrorCode.SsoCodeInvalid },
    });
    expect((await redeem(back.code as string, jar)).body.code).toBe(ErrorCode.SsoCodeInvalid);
  });

  it('refuses a replayed authorization code, at the same and at a new sign-in', async () => {
    const username = uniqueName('ssoreplay');
    await k.createUser(username, PASSWORD);
    const first = await throughProvider(username);
    expect((await callback(first.callback, first.jar)).code).toBeTruthy();
    // The same callback again: its state is used.
    expect((await callback(first.callback, first.jar)).error).toBe(ErrorCode.SsoFailed);
    // The used code under a fresh sign-in's state and cookie: the provider refuses the code (and PKCE).
    const second = await throughProvider(username);
    const replay = new URL(second.callback);
    replay.searchParams.set('code', new URL(first.callback).searchParams.get('code') ?? '');
    expect((await callback(replay.href, second.jar)).error).toBe(ErrorCode.SsoFailed);
  });

  it("counts the provider's MFA as the second factor only where the config says so", async () => {
    const username = uniqueName('ssomfa');
    await k.createUser(username, PASSWORD);
    // The user has a second factor: an authenticator app.
    const session = await login(stack.url, username, PASSWORD);
    const started = await client.post('/api/v1/me/totp', {
      ...fromIp(uniqueIp()),
      token: session,
      body: { password: PASSWORD },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const confirmed = await client.post('/api/v1/me/totp/confirm', {
      ...fromIp(uniqueIp()),
      token: session,
      body: { code: await generate({ secret: started.body.data.secret }) },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

    const signIn = async (mfa: boolean) => {
      const { callback: url, jar } = await throughProvider(username, { mfa });
      const back = await callback(url, jar);
      return (await redeem(back.code as string, jar)).body.data;
    };
    // Not configured: MFA at the provider or not, Patrol asks for its own second factor.
    expect(await signIn(true)).toMatchObject({ second_factor: { ticket: expect.any(String) } });

    await setSso({ ...SSO, mfa_claim: 'amr', mfa_values: ['mfa'] });
    try {
      expect(await signIn(false)).toMatchObject({ second_factor: { ticket: expect.any(String) } });
      const withMfa = await signIn(true);
      expect(withMfa).toMatchObject({ jwt: expect.any(String) });
      expect(withMfa.second_factor).toBeUndefined();
    } finally {
      await setSso(SSO);
    }
  });

  it('keeps the client secret out of the config, its versions and the audit trail', async () => {
    const token = await k.admin();
    const state = await client.get('/api/v1/super/sso/client-secret', { token });
    expect(state.body.data).toMatchObject({ set: true, hint: expect.any(String) });
    expect(state.body.data.hint).not.toContain(SANDBOX_OIDC_CLIENT.secret);
    const reads = await Promise.all([
      client.get('/api/v1/super/system-config', { token }),
      client.get('/api/v1/system-config', { token }),
      client.get('/api/v1/super/system-config/versions?page_size=0', { token }),
      client.get('/api/v1/super/audit?page_size=50', { token }),
    ]);
    for (const read of reads) expect(JSON.stringify(read.body)).not.toContain(SANDBOX_OIDC_CLIENT.secret);
  });

  it('refuses an issuer on a private address, and a plain http issuer', async () => {
    const token = await k.admin();
    const { document } = (await client.get('/api/v1/super/system-config', { token })).body.data;
    for (const issuer of ['http://169.254.169.254/latest', 'http://10.1.2.3', 'http://example.com']) {
      const res = await client.post('/api/v1/super/system-config', {
        token,
        body: { ...document, sso: { ...SSO, issuer } },
      });
      expect(res.status, issuer).toBe(400);
      expect(res.body.extra?.['sso.issuer'], issuer).toBeTruthy();
    }
  });

  it('answers the login page with "not set up" when SSO is off', async () => {
    await setSso({ ...SSO, enabled: false });
    try {
      const res = await fetch(`${stack.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get('location') ?? '').searchParams.get('sso_error')).toBe(
        String(ErrorCode.SsoNotConfigured),
      );
      expect((await client.get('/api/v1/auth/sso')).body.data).toEqual({ enabled: false, display_name: '' });
    } finally {
      await setSso(SSO);
    }
  });
});
