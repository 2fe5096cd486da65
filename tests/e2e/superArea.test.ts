// The super area end to end (issue 12): user management with edit and the enable switch, a
// disabled user thrown out on their next click, and the system config's time zone reaching every
// time the console shows.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, cellOf, rowOf, screenshot, searchTable, shows } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const PASSWORD = 'super-area-1';

const session = browserSession(stack.url);
const superMenu = (page: Page) => page.getByRole('navigation', { name: 'Super menu' });
const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const usersTable = (page: Page) => page.getByRole('table').first();

/** What the console must show for `ms` in `zone`: 'YYYY-MM-DD HH:mm:ss'. */
function inZone(ms: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

let originalConfig: unknown;
afterAll(async () => {
  // Later test files read times in the zone they expect.
  if (originalConfig) {
    await k.client.post('/api/v1/super/system-config', { token: await k.admin(), body: originalConfig });
  }
  k.destroy();
});

describe('super area', () => {
  const operator = uniqueName('e2eop');
  let operatorPage: Page;

  it('creates an operator, who signs in elsewhere and sees no super menu', async () => {
    const admin = await session.signedIn('admin', stack.adminPassword);
    await superMenu(admin).getByRole('link', { name: 'User management' }).click();
    await admin.waitForURL((url) => url.pathname === '/super/users/users');

    await admin.getByRole('button', { name: 'NewUser' }).click();
    const dialog = admin.getByRole('alertdialog');
    await dialog.locator('input[name="username"]').fill(operator);
    await dialog.locator('input[name="nickname"]').fill(`Nick ${operator}`);
    await dialog.locator('input[name="password"]').fill(PASSWORD);
    await dialog.getByRole('radio', { name: 'Operator' }).check();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await shows(admin.getByText('Add user success'));
    await searchTable(admin, operator);
    await shows(rowOf(usersTable(admin), operator));
    await screenshot(admin, 'super-users-table');

    // The next test disables this operator and watches this page land on the login page.
    operatorPage = await session.signedIn(operator, PASSWORD, { keepForFile: true });
    await shows(mainMenu(operatorPage));
    expect(await superMenu(operatorPage).count()).toBe(0);
  });

  it('edits the operator in a dialog, then disables them: their next click lands on the login page', async () => {
    const admin = await session.signedIn('admin', stack.adminPassword);
    await admin.goto('/super/users/users');
    await searchTable(admin, operator);
    const row = rowOf(usersTable(admin), operator);
    await shows(row);

    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.locator('input[name="nickname"]').fill('Renamed Op');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await shows(admin.getByText('Update user success'));
    await shows(rowOf(usersTable(admin), 'Renamed Op'));

    const enabled = await cellOf(usersTable(admin), rowOf(usersTable(admin), operator), 'Enabled');
    await enabled.getByRole('switch').click();
    await shows(admin.getByText('Update user success'));
    await expect.poll(() => enabled.getByRole('switch').isChecked()).toBe(false);

    // Their next request is refused and lands them on the login page: the click's, or a refresh of the
    // home page's panels that came first (then the link is gone before the click, which is just as right).
    const onLogin = (url: URL) => url.pathname === '/auth/login';
    if (!onLogin(new URL(operatorPage.url())))
      await mainMenu(operatorPage)
        .getByRole('link', { name: 'Help' })
        .click({ timeout: 5_000 })
        .catch(() => undefined);
    await operatorPage.waitForURL(onLogin, { timeout: 15_000 });
  });

  it('changes the time zone in Config, and the new zone shows where times are shown', async () => {
    const token = await k.admin();
    originalConfig = (await k.client.get('/api/v1/super/system-config', { token })).body.data.document;
    const users = await k.client.get(`/api/v1/super/users?keyword=${operator}&keywordField=username`, { token });
    const createdAt: number = users.body.data.result[0].created_at;
    // UTC+14: no machine running this test is in it, and it differs from the default (Yangon, UTC+6:30).
    const zone = 'Pacific/Kiritimati';

    const admin = await session.signedIn('admin', stack.adminPassword);
    await superMenu(admin).getByRole('link', { name: 'Config' }).click();
    await admin.waitForURL((url) => url.pathname === '/super/system/config');
    const zoneInput = admin.locator('input[name="time_zone"]');
    await shows(zoneInput);

    // A zone that does not exist is refused in place and nothing is saved.
    await zoneInput.fill('Mars/Base');
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(admin.getByText('Unknown time zone, use an IANA name such as Asia/Yangon'));

    await zoneInput.fill(zone);
    await expect.poll(() => admin.getByRole('figure', { name: 'Config as JSON' }).textContent()).toContain(zone);
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(admin.getByText('Save config success'));
    await shows(admin.getByRole('cell', { name: /time_zone: ".*" → "Pacific\/Kiritimati"/ }));
    await screenshot(admin, 'super-config-form');

    await superMenu(admin).getByRole('link', { name: 'User management' }).click();
    await searchTable(admin, operator);
    const row = rowOf(usersTable(admin), operator);
    await shows(row);
    const created = await cellOf(usersTable(admin), row, 'Created At');
    await expect.poll(() => created.textContent(), { timeout: 10_000 }).toContain(inZone(createdAt, zone));
  });
});
