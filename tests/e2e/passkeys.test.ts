// Passkeys in Chromium (issue 43, item 1): a virtual authenticator (CDP WebAuthn, a platform
// authenticator with user verification, as a laptop's fingerprint reader) registers a passkey on
// /setting/security, then signs in after the password and on its own. The stack's PUBLIC_URL is
// http://127.0.0.1:<port>, whose passkeys belong to `localhost` (WebAuthn takes no IP address as the
// site: functions/auth/relyingParty.ts), so the browser opens the console at http://localhost:<port>.
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, login, screenshot, shows, submitLogin } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const localUrl = stack.url.replace('//127.0.0.1:', '//localhost:');
const session = browserSession(localUrl);
const PASSWORD = 'e2e-passkey-1';

/** A platform authenticator that holds discoverable passkeys and verifies its user, attached to `page`. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/auth/login'));
}

/** Waits until the console has left the login page; a picture of what it shows instead when it does not. */
async function signedInAt(page: Page, step: string) {
  try {
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'), { timeout: 20_000 });
  } catch (error) {
    await screenshot(page, `passkeys-not-signed-in-${step}`);
    throw error;
  }
}

describe('passkeys in the browser', () => {
  it('registers a passkey on the security page, then signs in with the password plus the passkey, and with the passkey alone', async () => {
    const username = uniqueName('e2epk');
    await k.createUser(username, PASSWORD);
    const page = await session.page();
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await login(page, username, PASSWORD);
    await page.goto('/setting/security');
    const panel = page.getByRole('region', { name: 'Passkeys' });
    await shows(panel.getByText('No passkeys yet.'));
    await panel.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('E2E laptop');
    // A wrong current password: marked in the dialog, and the authenticator is never asked.
    const password = dialog.getByLabel(/Current password/);
    await password.fill('not-my-pass-1');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await shows(dialog.getByText('Current password is wrong'));
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(0);
    await password.fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const row = panel.getByRole('row').filter({ hasText: 'E2E laptop' });
    await shows(row);
    await expect.poll(() => row.textContent()).toContain('Never');
    await screenshot(page, 'passkeys-security');
    // The same panel in Chinese.
    await page.evaluate(() => localStorage.setItem('patrol.locale', 'zh'));
    await page.reload();
    await shows(page.getByRole('region', { name: '通行密钥' }).getByText('E2E laptop'));
    await screenshot(page, 'passkeys-security-zh');
    await page.evaluate(() => localStorage.setItem('patrol.locale', 'en'));
    await page.reload();
    await shows(row);

    // The authenticator holds one discoverable passkey for this site, under the user's handle.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

    // Password, then the passkey as the second step.
    await signOut(page);
    await submitLogin(page, username, PASSWORD);
    const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
    await shows(usePasskey);
    await screenshot(page, 'passkeys-second-step');
    await usePasskey.click();
    await signedInAt(page, 'second-step');

    await page.goto('/setting/security');
    await shows(row);
    await expect.poll(() => row.textContent()).not.toContain('Never');

    // The passkey alone: no username, no password.
    await signOut(page);
    await screenshot(page, 'passkeys-login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await signedInAt(page, 'alone');
    await page.goto('/setting/profile');
    await shows(page.getByText(username));
    const { credentials: after } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after[0]?.signCount).toBeGreaterThan(credentials[0]?.signCount ?? 0);
  });

  it('tells a user at 127.0.0.1 to open localhost for passkeys', async () => {
    const page = await session.page();
    await page.goto(`${stack.url}/auth/login`);
    const hint = page.getByText('To sign in with a passkey, open the console at');
    await shows(hint);
    await expect.poll(() => page.getByRole('link', { name: `${localUrl}/auth/login` }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
  });
});
