// TOTP in Chromium (issue 43, item 1): a user sets up an authenticator app on /setting/security (the
// current password, the QR code and the typed key, a first code, the recovery codes), signs out, and signs in with the
// password and then a code. Codes come from otplib with the key the page shows, as a phone's app
// makes them; the sign-in uses the next window's code (the enrolment used this one's).
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, login, screenshot, shows, submitLogin } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const session = browserSession(stack.url);
const PASSWORD = 'e2e-totp-pass-1';

const codeAt = (secret: string, windows = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + windows * 30 });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/auth/login'));
}

describe('TOTP in the browser', () => {
  it('sets up the app on the security page, signs out, and signs in with the password and a code', async () => {
    const username = uniqueName('e2etotp');
    await k.createUser(username, PASSWORD);
    const page = await session.page();
    await login(page, username, PASSWORD);

    await page.goto('/setting/security');
    const panel = page.getByRole('region', { name: 'Authenticator app' });
    await shows(panel.getByText('Off'));
    await panel.getByRole('button', { name: 'Set up the authenticator app' }).click();
    // The current password first: a session alone adds no factor.
    const dialog = page.getByRole('dialog');
    const password = dialog.getByLabel(/Current password/);
    await password.fill('not-my-pass-1');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await shows(dialog.getByText('Current password is wrong'));
    await screenshot(page, 'totp-setup-password');
    await password.fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const qr = panel.getByRole('img', { name: 'QR code for the authenticator app' });
    await shows(qr);
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await panel.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'totp-setup');

    await panel.getByLabel(/Code from the authenticator app/).fill(await codeAt(secret));
    await panel.getByRole('button', { name: 'Confirm' }).click();
    const codes = panel.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await shows(codes);
    expect(await codes.count()).toBe(10);
    await screenshot(page, 'totp-recovery-codes');
    await panel.getByRole('button', { name: 'Done' }).click();
    await shows(panel.getByText('Recovery codes left: 10'));
    await shows(panel.getByText('On'));

    await signOut(page);
    await submitLogin(page, username, PASSWORD);
    const code = page.getByLabel(/Code from the authenticator app/);
    await shows(code);
    // No token before the second step.
    expect(await page.evaluate(() => localStorage.getItem('patrol.auth'))).toBeNull();
    await screenshot(page, 'totp-second-step');

    await code.fill('000000' === (await codeAt(secret, 1)) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await shows(page.getByText('Wrong code.'));
    await code.fill(await codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'), { timeout: 20_000 });
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('patrol.auth'))) ?? '{}')).toMatchObject({
      name: `Nick ${username}`,
    });

    // The second step in Chinese (the product's default language).
    const zh = await session.page({ locale: 'zh' });
    await submitLogin(zh, username, PASSWORD);
    await shows(zh.getByText('两步登录'));
    await shows(zh.getByRole('button', { name: '验证' }));
    await screenshot(zh, 'totp-second-step-zh');
  });
});
