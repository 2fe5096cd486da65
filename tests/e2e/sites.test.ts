// The Sites screens end to end (spec sections 2, 4, 5, 8): a site with its accounts is created,
// renamed, toggled, given another account, its accounts edited and disabled on the Account page,
// filtered, exported as CSV and deleted, against the real stack in Chromium.
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { api, login as apiLogin } from '../helpers/api.js';
import { uniqueName } from '../helpers/authKit.js';
import { browserSession, cellOf, collectConsoleErrors, rowOf, screenshot, searchTable, shows } from './helpers.js';

const stack = inject('stack');
const SITE_URL = stack.env.SANDBOX_SITE_URL ?? 'https://sandbox.example.test';

const session = browserSession(stack.url, { context: { acceptDownloads: true } });
const asAdmin = () => session.signedIn('admin', stack.adminPassword);

const toast = (page: Page, text: string) => shows(page.getByText(text, { exact: true }));
const sitesTable = (page: Page) => page.getByRole('table', { name: 'Sites' });

/** The text of a row's cell under the header `column`. */
const cellText = async (table: Locator, row: Locator, column: string) =>
  ((await (await cellOf(table, row, column)).textContent()) ?? '').trim();

async function openSites(page: Page): Promise<Locator> {
  await page.goto('/sites');
  const table = sitesTable(page);
  await shows(table);
  return table;
}

describe('Sites screens', () => {
  it('creates, edits, checks, exports and deletes a site with its accounts', async () => {
    const page = await asAdmin();
    const console = collectConsoleErrors(page);
    const name = uniqueName('site-');
    const users = [`${name}-a`, `${name}-b`, `${name}-c`];
    let table = await openSites(page);

    // New Site with two accounts; adding the second row first needs the first one filled.
    await page.getByRole('button', { name: 'NewSite' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'New Site' });
    await shows(dialog);
    await dialog.getByRole('button', { name: 'Add account' }).click();
    await shows(dialog.getByText('Please enter this account'));
    await dialog.getByRole('textbox', { name: 'Site Name' }).fill(name);
    await dialog.getByRole('textbox', { name: 'Site URL' }).fill(SITE_URL);
    await dialog.getByRole('textbox', { name: 'Account 1' }).fill(users[0]);
    await dialog.getByLabel('Password 1').fill('sandbox123');
    await dialog.getByRole('button', { name: 'Add account' }).click();
    await dialog.getByRole('textbox', { name: 'Account 2' }).fill(users[1]);
    await dialog.getByLabel('Password 2').fill('sandbox456');
    await screenshot(page, 'sites-new-site-dialog');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Add site success');
    await dialog.waitFor({ state: 'detached' });

    let row = rowOf(table, name);
    await shows(row);
    expect(await cellText(table, row, 'Valid Accounts')).toBe('2');
    expect(await cellText(table, row, 'URL')).toBe(SITE_URL);

    // Rename inline.
    const renamed = `${name}-x`;
    await row.getByRole('button', { name: 'Edit Name' }).click();
    const popup = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Save' }) });
    await popup.getByRole('textbox').fill(renamed);
    await popup.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Update Name/URL Success.');
    row = rowOf(table, renamed);
    await shows(row);

    // Toggle enable off in the row.
    const enable = row.getByRole('switch', { name: 'Enable' });
    expect(await enable.isChecked()).toBe(true);
    await enable.click();
    await toast(page, 'Update enable success');
    await expect.poll(() => enable.isChecked()).toBe(false);

    // Another account from the Accounts dialog; the list tab shows all three.
    await row.getByRole('button', { name: 'Accounts' }).click();
    const accounts = page.getByRole('dialog', { name: /Site Accounts/ });
    await shows(accounts);
    await accounts.getByRole('textbox', { name: 'Account 1' }).fill(users[2]);
    await accounts.getByLabel('Password 1').fill('sandbox789');
    await accounts.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Add account success.');
    const list = accounts.getByRole('table', { name: 'All Accounts' });
    await shows(list.getByText(users[2]));
    expect(await list.locator('tbody tr').count()).toBe(3);
    await accounts.getByRole('button', { name: 'OK', exact: true }).click();
    await expect.poll(() => cellText(table, rowOf(table, renamed), 'Valid Accounts')).toBe('3');

    // The checkpoint grid of the site's Check dialog.
    await row.getByRole('button', { name: 'Check' }).click();
    const check = page.getByRole('dialog', { name: 'Choose checkpoint for site' });
    await shows(check);
    await check.getByRole('checkbox', { name: 'Login Account: ALL' }).click();
    await check.getByRole('checkbox', { name: 'Place Bets: D4' }).click();
    await check.getByRole('checkbox', { name: 'TT', exact: true }).click();
    const d4 = check.getByRole('checkbox', { name: 'D4', exact: true });
    expect(await d4.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);
    await screenshot(page, 'sites-checkpoint-grid');
    await check.getByRole('button', { name: 'Cancel' }).click();

    // Account page: edit a password inline, then disable an account.
    await page.goto('/sites/accounts');
    const accountTable = page.getByRole('table', { name: 'Account' });
    const first = rowOf(accountTable, users[0]);
    await shows(first);
    expect(await cellText(accountTable, first, 'Site')).toBe(renamed);
    // Passwords are masked until revealed one at a time (the list carries none).
    expect(await cellText(accountTable, first, 'Pwd')).toBe('••••••••');
    await screenshot(page, 'sites-accounts-masked');
    await first.getByRole('button', { name: 'Edit Pwd' }).click();
    const pwdPopup = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Save' }) });
    await pwdPopup.getByRole('textbox').fill('  changed-pwd-1  ');
    await pwdPopup.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Update Pwd Success.');
    await first.getByRole('button', { name: 'Show password' }).click();
    await shows(first.getByText('changed-pwd-1', { exact: true }));
    await screenshot(page, 'sites-accounts-table');
    await first.getByRole('button', { name: 'Hide password' }).click();
    expect(await cellText(accountTable, first, 'Pwd')).toBe('••••••••');
    await rowOf(accountTable, users[1]).getByRole('switch', { name: 'Enable' }).click();
    await expect.poll(() => rowOf(accountTable, users[1]).getByRole('switch').isChecked()).toBe(false);

    table = await openSites(page);
    row = rowOf(table, renamed);
    await expect.poll(() => cellText(table, row, 'Valid Accounts')).toBe('2');

    // Select the row and export it as CSV.
    await row.getByRole('checkbox', { name: 'Select row' }).click();
    await page.getByRole('button', { name: 'Export' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'CSV' }).click();
    const file = await (await download).path();
    const csv = await readFile(file, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('ID,Name,URL,Valid Accounts,Enable,Control,Created At');
    expect(lines[1]).toMatch(
      new RegExp(`^\\d+,${renamed},${SITE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},2,false,false,\\d{4}-`),
    );
    expect(lines[2]).toBe('');
    expect(csv.replace(/\r\n/g, '')).not.toContain('\n');

    // Delete after the confirmation.
    await row.getByRole('button', { name: 'Delete' }).click();
    await shows(page.getByText(`Confirm Delete Site ${renamed}?`));
    await page.getByRole('button', { name: 'OK', exact: true }).click();
    await toast(page, `Delete site ${renamed} success`);
    await rowOf(table, renamed).waitFor({ state: 'detached' });
    expect(console.errors).toEqual([]);
  });

  it('shows the oldest accounts on the Last page, and tells the server it jumped there', async () => {
    const token = await apiLogin(stack.url, 'admin', stack.adminPassword);
    const http = api(stack.url);
    // Enough accounts that the last page lies well past the middle: it is read from the back.
    const tag = uniqueName('last');
    const accounts = Array.from({ length: 45 }, (_, n) => ({ user: `${tag}-${n}`, pwd: 'sandbox123' }));
    const body = { name: tag, url: `https://${tag}.example.test`, accounts };
    expect((await http.post('/api/v1/sites', { token, body })).status).toBe(200);
    // e2e files run one at a time: nothing adds or removes accounts while this test looks.
    const total = (await http.get('/api/v1/sites/accounts?page_size=1', { token })).body.data.total_count as number;
    const lastPage = Math.ceil(total / 20);
    const onLast = total - (lastPage - 1) * 20;
    const oldestFirst = encodeURIComponent('{"created_at":"asc"}');
    const oldest = (await http.get(`/api/v1/sites/accounts?sort=${oldestFirst}&page_size=${onLast}`, { token })).body
      .data.result as { id: number }[];

    const page = await asAdmin();
    const jumps: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/v1/sites/accounts?') && req.headers()['x-list-jump'] === '1')
        jumps.push(new URL(req.url()).searchParams.get('page') ?? '');
    });
    await page.goto('/sites/accounts');
    const table = page.getByRole('table', { name: 'Account' });
    await shows(rowOf(table, `${tag}-44`));
    await page.getByRole('button', { name: 'Last page' }).click();
    await shows(page.getByText(`Page ${lastPage} of ${lastPage}`));
    const idColumn = (await table.locator('thead tr').first().locator(':scope > *').allTextContents()).findIndex(
      (h) => h.trim() === 'ID',
    );
    // One read of the whole body: the rows of the page before are replaced while the next one shows.
    const ids = () =>
      table
        .locator('tbody tr')
        .evaluateAll((rows, i) => rows.map((r) => Number(r.children[i]?.textContent?.trim())), idColumn);
    // Newest first, so the last page holds the oldest accounts, the oldest at the bottom.
    await expect.poll(ids).toEqual(oldest.map((a) => a.id).reverse());
    expect(jumps).toEqual([String(lastPage)]);
    await screenshot(page, 'site-accounts-last-page');
  });

  it('filters the sites by part of their name and batch-checks a selection', async () => {
    const token = await apiLogin(stack.url, 'admin', stack.adminPassword);
    const tag = uniqueName('flt');
    const http = api(stack.url);
    const fruits = [`${tag}-apple`, `${tag}-banana`, `other-${tag.slice(0, 2)}-kiwi`];
    for (const [i, name] of fruits.entries()) {
      const accounts = Array.from({ length: i + 1 }, (_, n) => ({ user: `${name}-${n}`, pwd: 'sandbox123' }));
      const body = { name, url: `https://${name}.example.test`, accounts };
      expect((await http.post('/api/v1/sites', { token, body })).status).toBe(200);
    }
    const page = await asAdmin();
    const table = await openSites(page);
    await shows(rowOf(table, fruits[2]));

    // BatchCheck counts the selection and lists the chosen sites.
    for (const name of fruits.slice(0, 2))
      await rowOf(table, name).getByRole('checkbox', { name: 'Select row' }).click();
    await shows(page.getByRole('button', { name: 'BatchCheck (2)' }));
    await screenshot(page, 'sites-table');
    await page.getByRole('button', { name: 'BatchCheck (2)' }).click();
    const batch = page.getByRole('dialog', { name: 'Choose checkpoint for multi sites (2)' });
    await batch.getByRole('button', { name: 'Sites (2)' }).click();
    await shows(batch.getByText(fruits[1], { exact: true }));
    await batch.getByRole('button', { name: 'Check Now' }).click();
    await toast(page, 'No point to check');
    await batch.getByRole('checkbox', { name: 'Login Account: ALL' }).click();
    await screenshot(page, 'sites-batch-check');

    // Check Now asks first; the operation it starts is one click away. (The hosts do not resolve,
    // so the engine's logins fail fast.)
    await batch.getByRole('button', { name: 'Check Now' }).click();
    const question = page.getByRole('alertdialog').filter({
      hasText: 'This operation will detection those sites immediately, confirm to continue?',
    });
    await question.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Check success, go operation menu to check.');
    const link = batch.getByRole('link', { name: /^Open operation \d+$/ });
    const operationPath = await link.getAttribute('href');
    expect(operationPath).toMatch(/^\/operations\/\d+$/);
    await link.click();
    await page.waitForURL((url) => url.pathname === operationPath);
    await page.goto('/sites');
    await shows(rowOf(table, fruits[2]));

    // The keyword matches part of the name, whatever its case.
    await searchTable(page, `${tag.slice(3)}-APP`);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await shows(rowOf(table, fruits[0]));
    await searchTable(page, tag);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    expect(await rowOf(table, fruits[2]).count()).toBe(0);
  });
});
