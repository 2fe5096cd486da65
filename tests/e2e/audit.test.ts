// The audit log end to end (Super config issue, item 3): a user's writes show up in the super
// menu's Audit log, and filtering it by that user leaves only their rows.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, rowOf, screenshot, shows } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const session = browserSession(stack.url);
const superMenu = (page: Page) => page.getByRole('navigation', { name: 'Super menu' });

afterAll(() => k.destroy());

describe('audit log', () => {
  it('shows a user’s writes and filters the table by that user', async () => {
    const name = uniqueName('e2eaudit');
    const password = 'audit-e2e-pass-1';
    await k.createUser(name, password, 'super');
    const token = await login(stack.url, name, password);
    const siteName = uniqueName('Audited ');
    const site = await k.client.post('/api/v1/sites', {
      token,
      body: {
        name: siteName,
        url: 'https://agent.example.test',
        accounts: [{ user: 'agent01', pwd: 'e2e-site-pwd-1' }],
      },
    });
    expect(site.status).toBe(200);

    const admin = await session.signedIn('admin', stack.adminPassword);
    await superMenu(admin).getByRole('link', { name: 'Audit log' }).click();
    await admin.waitForURL((url) => url.pathname === '/super/system/audit');
    const table = admin.getByRole('table', { name: 'Audit log' });
    await shows(table.getByRole('row').nth(1));

    await table.getByRole('button', { name: 'Filter User', exact: true }).click();
    await admin.getByRole('textbox', { name: 'User', exact: true }).fill(name);
    await admin.keyboard.press('Enter');
    const rows = table.locator('tbody tr');
    // The filtered page replaces the unfiltered one: wait until every row is this user's.
    await expect
      .poll(
        async () => {
          const all = await rows.allTextContents();
          return all.length > 0 && all.every((text) => text.includes(name));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await shows(rowOf(table, 'POST /sites'));
    await shows(rowOf(table, 'POST /login'));
    const texts = await rows.allTextContents();
    for (const text of texts) expect(text).toContain(name);
    expect(texts.join('\n')).not.toContain('e2e-site-pwd-1');
    expect(texts.join('\n')).not.toContain(password);
    await screenshot(admin, 'super-audit-filtered-by-user');
  });
});
