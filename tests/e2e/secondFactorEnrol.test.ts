// The login's enrolment step in Chromium (issue 43): on a stack of its own started as `npm start`
// starts one (no AUTH_SECOND_FACTOR: the default policy, super), the first super user's first
// sign-in goes from the password to setting up the app, a first code, the recovery codes, then the
// console. The shared e2e stack runs with the policy off, which no test may change.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningStack, startStackProcess, stopStackProcess } from '../helpers/stackProcess.js';
import { launchBrowser, openPage, screenshot, shows, submitLogin } from './helpers.js';

const PASSWORD = 'e2e-enrol-pass-1';
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-e2e-enrol-'));
let stack: RunningStack | undefined;

beforeAll(async () => {
  stack = await startStackProcess({ dataDir, adminPassword: PASSWORD, env: { AUTH_SECOND_FACTOR: '' } });
}, 120_000);
afterAll(async () => {
  if (stack) await stopStackProcess(stack.child);
  if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
});

describe('enrolment at the first sign-in', () => {
  it('takes the first super user from the password to the app, the recovery codes and the console', async () => {
    const browser = await launchBrowser();
    try {
      const page = await openPage(browser, (stack as RunningStack).url);
      await submitLogin(page, 'admin', PASSWORD);
      const qr = page.getByRole('img', { name: 'QR code for the authenticator app' });
      await shows(qr);
      await shows(page.getByText('Your account needs a second factor. Set up an authenticator app to continue.'));
      expect(await page.evaluate(() => localStorage.getItem('patrol.auth'))).toBeNull();
      await screenshot(page, 'totp-enrol-step');

      const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
      await page.getByLabel(/Code from the authenticator app/).fill(await generate({ secret }));
      await page.getByRole('button', { name: 'Confirm' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await shows(codes);
      expect(await codes.count()).toBe(10);
      expect(new URL(page.url()).pathname).toBe('/auth/login');
      await screenshot(page, 'totp-enrol-recovery-codes');

      await page.getByRole('button', { name: 'Continue to the console' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'), { timeout: 20_000 });
      expect(JSON.parse((await page.evaluate(() => localStorage.getItem('patrol.auth'))) ?? '{}')).toMatchObject({
        s: 'super',
      });
    } finally {
      await browser.close();
    }
  });
});
