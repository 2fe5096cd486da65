// The console shell end to end (spec sections 2, 4, 6, 8): login guard and redirect, the menu,
// the super area, session expiry, password change, remembered shell state, the login page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { login as apiLogin } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, collectConsoleErrors, login, screenshot, shows, submitLogin } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const PASSWORD = 'secret-pass-1';

const session = browserSession(stack.url);
const newPage = () => session.page();
const asAdmin = () => session.signedIn('admin', stack.adminPassword);
let operatorName: string;

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const superMenu = (page: Page) => page.getByRole('navigation', { name: 'Super menu' });
const tabs = (page: Page) => page.getByRole('toolbar', { name: 'Opened pages' });
const path = (page: Page) => new URL(page.url()).pathname;
/** The console's stored login (spec: one local key holding jwt, name, s). */
const storedAuth = (page: Page) => page.evaluate<string | null>("localStorage.getItem('patrol.auth')");

/** A screen is up: its heading shows, nothing is loading, and it is neither an error page nor a failed chunk. */
async function expectScreen(page: Page) {
  await shows(page.locator('main :is(h1, h2)'));
  await expect.poll(() => page.getByRole('progressbar').count(), { timeout: 15_000 }).toBe(0);
  expect(await page.getByText('Page not found').count()).toBe(0);
  expect(await page.getByText('Failed to load this page.').count()).toBe(0);
}

beforeAll(async () => {
  operatorName = uniqueName('op');
  await k.createUser(operatorName, PASSWORD, 'operator');
});

afterAll(() => {
  k.destroy();
});

describe('console shell', () => {
  it('sends a visitor without a token to login with the original path, and back there after login', async () => {
    const page = await newPage();
    await page.goto('/setting/profile?tab=1');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/setting/profile?tab=1');

    await login(page, 'admin', stack.adminPassword);
    await page.waitForURL((url) => url.pathname === '/setting/profile');
    await shows(page.getByRole('heading', { name: 'Profile' }));
  });

  it('opens every entry of the left menu without a console error', async () => {
    const page = await asAdmin();
    const consoleErrors = collectConsoleErrors(page);
    await expectScreen(page);
    await screenshot(page, 'shell-dashboard');

    // Groups start closed; opening them all shows every entry (unbuilt screens are simply absent).
    const closedGroups = mainMenu(page).locator('button[aria-expanded="false"]');
    while ((await closedGroups.count()) > 0) await closedGroups.first().click();
    const entries = await mainMenu(page)
      .locator('a[href]')
      .evaluateAll((links) =>
        links.map((a) => ({ href: a.getAttribute('href') ?? '', label: a.textContent?.trim() ?? '' })),
      );
    expect(entries.map((e) => e.label)).toEqual(expect.arrayContaining(['Home', 'Help', 'Account', 'Password']));

    for (const entry of entries) {
      await mainMenu(page).locator(`a[href="${entry.href}"]`).click();
      await page.waitForURL((url) => url.pathname === entry.href);
      await expectScreen(page);
      await page.waitForTimeout(150);
      expect({ entry: entry.label, errors: consoleErrors.errors }).toEqual({ entry: entry.label, errors: [] });
    }
  });

  it('hides the super menu from an operator, whose super calls answer 403 and super pages show 403', async () => {
    const page = await newPage();
    await login(page, operatorName, PASSWORD);
    await shows(mainMenu(page));
    expect(await superMenu(page).count()).toBe(0);

    const { jwt } = JSON.parse((await storedAuth(page)) ?? '{}');
    const { status } = await k.client.get('/api/v1/super/users', { token: jwt });
    expect(status).toBe(403);

    await page.goto('/super/users/users');
    await page.waitForURL((url) => url.pathname === '/403');
    await shows(page.getByRole('heading', { name: 'Access denied' }));
  });

  it('signs the user out at the next call once the session was revoked elsewhere, keeping the page to return to', async () => {
    const username = uniqueName('revoked');
    await k.createUser(username, PASSWORD);
    const page = await newPage();
    await login(page, username, PASSWORD);
    await page.goto('/setting/profile');
    await expectScreen(page);

    // Logging out on another device ends every session of the user.
    const other = await apiLogin(stack.url, username, PASSWORD);
    expect((await k.client.post('/api/v1/logout', { token: other })).status).toBe(200);

    // The page's own next call (the notification poll runs every 5 s on every page) answers 401.
    // A click would do the same, but would race that poll for which of them notices first.
    await page.waitForURL((url) => url.pathname === '/auth/login', { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/setting/profile');
    expect(await storedAuth(page)).toBeNull();
  });

  it('changes the password, asks to log in again, refuses the old password and accepts the new one', async () => {
    const username = uniqueName('pwd');
    const newPassword = 'changed-pass-2';
    await k.createUser(username, PASSWORD);
    const page = await newPage();
    await login(page, username, PASSWORD);

    await page.goto('/setting/password');
    await page.locator('input[name="old"]').fill(PASSWORD);
    await page.locator('input[name="pwd"]').fill(newPassword);
    await page.locator('input[name="repeat"]').fill(newPassword);
    await page.locator('form button[type="submit"]').click();

    await shows(page.getByText('Password update success, please login again.'));
    await page.waitForURL((url) => url.pathname === '/auth/login');

    await submitLogin(page, username, PASSWORD);
    await shows(page.getByText('Wrong username or password.'));
    expect(path(page)).toBe('/auth/login');

    await login(page, username, newPassword);
    await shows(mainMenu(page));
  });

  it('keeps the page tabs and the drawer open or mini state across a reload', async () => {
    const page = await asAdmin();
    await mainMenu(page).getByRole('link', { name: 'Help' }).click();
    await page.waitForURL((url) => url.pathname === '/help');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL((url) => url.pathname === '/setting/profile');
    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await page.getByRole('button', { name: 'Collapse super menu' }).click();

    await page.reload();

    await shows(tabs(page).getByRole('button', { name: 'Help', exact: true }));
    expect(await tabs(page).getByRole('button', { name: 'Profile', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await page.getByRole('button', { name: 'Toggle menu' }).getAttribute('aria-expanded')).toBe('false');
    const leftWidth = (await mainMenu(page).boundingBox())?.width ?? 0;
    expect(leftWidth).toBeLessThan(80);
    expect(await page.getByRole('button', { name: 'Expand super menu' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Collapse super menu' }).count()).toBe(0);
    await screenshot(page, 'shell-mini-drawers');
  });

  it('documents the bank webhook on the Help page from the API document, with a curl call to copy', async () => {
    const page = await asAdmin();
    const consoleErrors = collectConsoleErrors(page);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await mainMenu(page).getByRole('link', { name: 'Help' }).click();
    await page.waitForURL((url) => url.pathname === '/help');
    const document = page.waitForResponse((r) => r.url().endsWith('/api/v1/openapi.json'));
    await page.getByRole('tab', { name: 'Bank Notification' }).click();
    expect((await document).status()).toBe(200);

    await shows(page.getByRole('table', { name: 'Statement content' }));
    expect(await page.getByRole('region', { name: 'Endpoint' }).textContent()).toContain(`${stack.url}/webhook/bank`);
    await screenshot(page, 'help-bank-notification');

    const curl = page.getByRole('region', { name: 'curl example' });
    await curl.scrollIntoViewIfNeeded();
    await shows(curl);
    const text = (await curl.locator('code').textContent()) ?? '';
    expect(text).toContain(`curl -X POST '${stack.url}/webhook/bank'`);
    expect(text).toContain("-H 'X-API-Key: <api_key>'");
    await curl.getByRole('button', { name: 'Copy' }).click();
    await shows(curl.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await screenshot(page, 'help-bank-notification-curl');

    await page.getByRole('heading', { name: 'Outbound: Patrol notifies your webhook' }).scrollIntoViewIfNeeded();
    await shows(page.getByRole('table', { name: 'Headers' }));
    await screenshot(page, 'help-bank-notification-outbound');

    await page.getByRole('heading', { name: 'Verify the signature' }).scrollIntoViewIfNeeded();
    await shows(page.getByRole('region', { name: 'Node.js · standardwebhooks' }));
    await screenshot(page, 'help-bank-notification-verify');
    expect(consoleErrors.errors).toEqual([]);
  });

  it('says the credentials are wrong, asks for a captcha after three failures and lets the user in with it', async () => {
    const username = uniqueName('captcha');
    await k.createUser(username, PASSWORD);
    const page = await newPage();
    await page.goto('/auth/login');

    await submitLogin(page, username, 'wrong-pass-1');
    await shows(page.getByText('Wrong username or password.'));
    expect(await page.getByRole('img', { name: 'Captcha' }).count()).toBe(0);

    await submitLogin(page, username, 'wrong-pass-2');
    const captchaIds: string[] = [];
    page.on('response', async (r) => {
      if (r.url().endsWith('/api/v1/captcha')) captchaIds.push((await r.json()).data.id);
    });
    await submitLogin(page, username, 'wrong-pass-3');
    await shows(page.getByRole('img', { name: 'Captcha' }));
    await screenshot(page, 'login-captcha');

    // A person reads the picture; the test reads the answer the server stored for it.
    await expect.poll(() => captchaIds.length).toBe(1);
    const data = { id: captchaIds[0] };
    await page.locator('input[name="captcha"]').fill(await k.solveCaptcha(data.id));
    await login(page, username, PASSWORD);
    expect(path(page)).toBe('/');
  });
});

describe('user management', () => {
  it('creates a user from the New User dialog and resets its password from its row', async () => {
    const page = await asAdmin();
    await superMenu(page).getByRole('link', { name: 'User management' }).click();
    await page.waitForURL((url) => url.pathname === '/super/users/users');
    const table = page.getByRole('table', { name: 'Users' });
    await shows(table.getByRole('row', { name: /admin/ }));

    await page.getByRole('button', { name: 'NewUser' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'New User' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    expect(await dialog.getByText('Please input username').isVisible()).toBe(true);
    expect(await dialog.getByText('Please input password!').isVisible()).toBe(true);

    const username = uniqueName('made');
    await dialog.locator('input[name="username"]').fill(username);
    await dialog.locator('input[name="nickname"]').fill('Made In Browser');
    await dialog.locator('input[name="password"]').fill('first-pass-1');
    await screenshot(page, 'users-new-dialog');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await shows(page.getByText('Add user success'));
    const row = table.getByRole('row', { name: new RegExp(username) });
    await shows(row);
    expect(await row.textContent()).toContain('Made In Browser');
    expect(await row.textContent()).toContain('Operator');

    await page.getByRole('button', { name: 'Filter Created At' }).click();
    await shows(page.getByRole('group', { name: 'Filter Created At' }));
    await screenshot(page, 'table-filter-popover');
    await page.keyboard.press('Escape');

    await row.getByRole('button', { name: 'Reset password' }).click();
    const reset = page.getByRole('dialog', { name: `Reset password of ${username}` });
    await reset.locator('input[name="pwd"]').fill('second-pass-2');
    await reset.getByRole('button', { name: 'Confirm' }).click();
    await shows(page.getByText('Reset password success'));
    await screenshot(page, 'users');

    await expect(apiLogin(stack.url, username, 'first-pass-1')).rejects.toThrow(/400/);
    await expect(apiLogin(stack.url, username, 'second-pass-2')).resolves.toEqual(expect.any(String));
  });
});
