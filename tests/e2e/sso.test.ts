// Single sign-on in Chromium (issue 43, item 2): "Sign in with <name>" on the login page, the
// sandbox provider's own form (scripts/sandbox/oidc), and back in the console signed in; a user
// Patrol does not know comes back to the login page with the reason.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sandboxOidcPasswordFile } from '../../scripts/local/sandboxOidc.js';
import { SANDBOX_OIDC_CLIENT } from '../../scripts/sandbox/oidc/server.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, screenshot, shows } from './helpers.js';

const stack = inject('stack');
/** The stack's own sandbox password, generated into its DATA_DIR at start. */
const SANDBOX_OIDC_PASSWORD = readFileSync(sandboxOidcPasswordFile(stack.dataDir), 'utf8').trim();
const k = kit(stack);
const session = browserSession(stack.url);
const PASSWORD = 'e2e-sso-pass-1';

async function setSso(enabled: boolean) {
  const token = await k.admin();
  const { document } = (await k.client.get('/api/v1/super/system-config', { token })).body.data;
  const sso = {
    enabled,
    display_name: 'Sandbox SSO',
    issuer: stack.env.SANDBOX_OIDC_URL,
    client_id: SANDBOX_OIDC_CLIENT.id,
    username_claim: 'preferred_username',
    mfa_claim: 'off',
    mfa_values: [],
  };
  const res = await k.client.post('/api/v1/super/system-config', { token, body: { ...document, sso } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  const token = await k.admin();
  await k.client.put('/api/v1/super/sso/client-secret', { token, body: { client_secret: SANDBOX_OIDC_CLIENT.secret } });
  await setSso(true);
});

afterAll(async () => {
  await setSso(false);
  k.destroy();
});

describe('single sign-on in the browser', () => {
  it('signs in through the sandbox provider from the login page', async () => {
    const username = uniqueName('e2esso');
    await k.createUser(username, PASSWORD, 'operator');
    const page = await session.page();
    await page.goto('/auth/login');
    const button = page.getByRole('link', { name: 'Sign in with Sandbox SSO' });
    await shows(button);
    await screenshot(page, 'sso-login-button');

    await button.click();
    await page.waitForURL((url) => url.href.startsWith(stack.env.SANDBOX_OIDC_URL));
    await shows(page.getByRole('heading', { name: 'Sandbox identity provider' }));
    await page.getByLabel('Account').fill(username);
    await page.getByLabel('Password').fill(SANDBOX_OIDC_PASSWORD);
    await screenshot(page, 'sso-provider-form');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.href.startsWith(stack.url) && !url.pathname.startsWith('/auth/login'));
    // Signed in as that user: the header names them (the nickname Patrol has).
    await shows(page.getByText(`Nick ${username}`));
    expect(page.url()).not.toContain('sso_code');
    await screenshot(page, 'sso-signed-in');
  });

  it('shows the Single sign-on section on the super config page, the client secret only as set', async () => {
    const page = await session.signedIn('admin', stack.adminPassword);
    await page.goto('/super/system/config');
    const secret = page.locator('input[name="sso.client_secret"]');
    await shows(secret);
    await expect.poll(() => secret.getAttribute('placeholder')).toMatch(/^Set: /);
    expect(await secret.inputValue()).toBe('');
    expect(await page.locator('input[name="sso.issuer"]').inputValue()).toBe(stack.env.SANDBOX_OIDC_URL);
    expect(await page.content()).not.toContain(SANDBOX_OIDC_CLIENT.secret);
    await secret.scrollIntoViewIfNeeded();
    await screenshot(page, 'sso-config-section');
  });

  it('says it in Chinese too', async () => {
    const page = await session.page({ locale: 'zh' });
    await page.goto('/auth/login?sso_error=4022');
    await shows(page.getByRole('link', { name: '使用 Sandbox SSO 登录' }));
    await shows(page.getByText('您在身份提供方的账号不是 Patrol 用户。请联系超级管理员添加。'));
    await screenshot(page, 'sso-login-zh');
  });

  it('brings a user Patrol does not know back to the login page with the reason', async () => {
    const page = await session.page();
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Sign in with Sandbox SSO' }).click();
    await shows(page.getByLabel('Account'));
    await page.getByLabel('Account').fill('stranger');
    await page.getByLabel('Password').fill(SANDBOX_OIDC_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.href.startsWith(stack.url) && url.pathname.startsWith('/auth/login'));
    await shows(
      page.getByText('Your account at the identity provider is not a Patrol user. Ask a super user to add you.'),
    );
    expect(page.url()).not.toContain('sso_error');
    await screenshot(page, 'sso-unknown-user');
  });
});
