// Auto-check rules end to end (spec sections 2-5, 8, 9; issue 14): a rule is created through the
// five steps (each step's error flag seen after leaving it invalid), checked now (an operation named
// AutoCheck), its times edited and found on the schedule calendar, then disabled and deleted,
// against the real stack in Chromium.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { api, login as apiLogin } from '../helpers/api.js';
import { uniqueName } from '../helpers/authKit.js';
import { browserSession, cellOf, collectConsoleErrors, rowOf, screenshot, searchTable, shows } from './helpers.js';

const stack = inject('stack');
const SITE_URL = stack.env.SANDBOX_SITE_URL ?? 'https://sandbox.example.test';

const session = browserSession(stack.url);
const asAdmin = () => session.signedIn('admin', stack.adminPassword);

const toast = (page: Page, text: string) => shows(page.getByText(text, { exact: true }));
/** A step header of the stepper: '1. Name' ... '5. Overview'. */
const step = (page: Page, n: number, title: string) =>
  page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: new RegExp(`${n}\\. ${title}`) });
const flagged = (button: Locator) => button.getAttribute('aria-invalid').then((v) => v === 'true');
const next = (page: Page) => page.getByRole('button', { name: 'Next', exact: true }).click();
/**
 * The check a rule starts pushes a toast per result at the bottom right, where they stay until
 * closed; on a slow machine they arrive while the rule is edited and can cover its Save, as they
 * would for an operator, who closes them.
 */
async function closePushToasts(page: Page): Promise<void> {
  const close = page.locator('.fui-Toast').getByText('Close', { exact: true });
  for (let open = await close.count(); open > 0; open = await close.count()) {
    await close.first().click();
    // A closing toast stays in the page while it fades; wait for it to go before the next.
    await expect.poll(() => close.count()).toBeLessThan(open);
  }
}

async function createSite(): Promise<string> {
  const token = await apiLogin(stack.url, 'admin', stack.adminPassword);
  const name = uniqueName('rule-site-');
  const res = await api(stack.url).post('/api/v1/sites', {
    token,
    body: { name, url: SITE_URL, accounts: [{ user: 'agent01', pwd: 'sandbox123' }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return name;
}

async function openRules(page: Page): Promise<Locator> {
  await page.goto('/auto-checks/rules');
  const table = page.getByRole('table', { name: 'Auto Check Rules' });
  await shows(table);
  return table;
}

describe('Auto-check rules', () => {
  it('creates a rule in five steps, checks it now, edits its times, finds it on the calendar, disables and deletes it', async () => {
    const siteName = await createSite();
    const ruleName = uniqueName('rule-');
    const page = await asAdmin();
    const console = collectConsoleErrors(page);

    // ---- New rule: each step flagged after it was left invalid.
    let table = await openRules(page);
    await page.getByRole('button', { name: 'NewRule' }).click();
    await page.waitForURL('**/auto-checks/new');
    await shows(page.getByRole('textbox', { name: 'Rule Name' }));
    expect(await flagged(step(page, 1, 'Name'))).toBe(false);
    await next(page);
    expect(await flagged(step(page, 1, 'Name'))).toBe(true);
    await shows(step(page, 1, 'Name').getByText('Please enter rule name'));
    await step(page, 1, 'Name').click();
    await page.getByRole('textbox', { name: 'Rule Name' }).fill(ruleName);
    expect(await flagged(step(page, 1, 'Name'))).toBe(false);
    await next(page);

    // Step 2: the Sites table with its search and multi-select.
    const sites = page.getByRole('table', { name: 'Sites' });
    await shows(sites);
    await next(page);
    expect(await flagged(step(page, 2, 'Sites'))).toBe(true);
    await step(page, 2, 'Sites').click();
    await searchTable(page, siteName);
    await shows(rowOf(sites, siteName));
    await rowOf(sites, siteName).getByRole('checkbox', { name: 'Select row' }).check();
    await shows(page.getByText('Selected sites (1)'));
    expect(await flagged(step(page, 2, 'Sites'))).toBe(false);
    await next(page);

    // Step 3: the checkpoint grid.
    await shows(page.getByRole('group', { name: 'Checkpoints' }));
    await next(page);
    expect(await flagged(step(page, 3, 'Checkpoints'))).toBe(true);
    await step(page, 3, 'Checkpoints').click();
    await page.getByRole('checkbox', { name: 'Login Account: D4' }).check();
    expect(await flagged(step(page, 3, 'Checkpoints'))).toBe(false);
    await screenshot(page, 'auto-check-step-3-checkpoints');
    await next(page);

    // Step 4: times per weekday, 24-hour, in the configured zone.
    await shows(page.getByText(/Times are 24-hour times in /));
    await next(page);
    expect(await flagged(step(page, 4, 'Times'))).toBe(true);
    await step(page, 4, 'Times').click();
    await page.getByRole('button', { name: 'Add time on Monday' }).click();
    const monday = page.getByRole('listitem', { name: 'Monday' });
    await shows(monday.getByText('Fill or delete'));
    // No second slot while one is empty.
    expect(await page.getByRole('button', { name: 'Add time on Tuesday' }).getAttribute('aria-disabled')).toBe('true');
    await monday.getByRole('combobox', { name: 'Monday time 1' }).fill('0930');
    await monday.getByRole('combobox', { name: 'Monday time 1' }).blur();
    await expect.poll(() => monday.getByRole('combobox', { name: 'Monday time 1' }).inputValue()).toBe('09:30');
    await page.getByRole('button', { name: 'Add time on Friday' }).click();
    await page.getByRole('combobox', { name: 'Friday time 1' }).fill('18:45');
    await page.getByRole('combobox', { name: 'Friday time 1' }).blur();
    expect(await flagged(step(page, 4, 'Times'))).toBe(false);
    await screenshot(page, 'auto-check-step-4-times');
    await next(page);

    // Step 5: the overview with the next five runs.
    const runs = page.getByRole('region', { name: 'Next runs' }).getByRole('listitem');
    await shows(runs);
    expect(await runs.count()).toBe(5);
    expect(await runs.first().textContent()).toMatch(/^(Monday|Friday) \d{4}-\d{2}-\d{2} (09:30|18:45):00$/);
    await screenshot(page, 'auto-check-step-5-overview');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, `Create new rule ${ruleName} success.`);
    await page.waitForURL('**/auto-checks/rules');

    // ---- The list: next run, Show sites, Check now.
    table = page.getByRole('table', { name: 'Auto Check Rules' });
    let row = rowOf(table, ruleName);
    await shows(row);
    expect(((await (await cellOf(table, row, 'Next Run')).textContent()) ?? '').trim()).toMatch(
      /^\d{4}-\d{2}-\d{2} (09:30|18:45):00$/,
    );
    await row.getByRole('button', { name: `Show sites of ${ruleName}` }).click();
    const sitesDialog = page.getByRole('dialog', { name: `Sites of rule ${ruleName}` });
    await shows(sitesDialog.getByText(siteName));
    await sitesDialog.getByRole('button', { name: 'OK', exact: true }).click();
    await sitesDialog.waitFor({ state: 'detached' });

    await screenshot(page, 'auto-check-rules');
    await row.getByRole('button', { name: 'CheckNow' }).click();
    await shows(page.getByText('This operation will detection those sites immediately, confirm to continue?'));
    await page.getByRole('button', { name: 'OK', exact: true }).click();
    await toast(page, 'Check success, go operation menu to check.');
    await page.goto('/operations');
    const operations = page.getByRole('table', { name: 'Operations' });
    await shows(operations.getByRole('row').nth(1));
    const newest = operations.getByRole('row').nth(1);
    expect(((await (await cellOf(operations, newest, 'Name')).textContent()) ?? '').trim()).toBe('AutoCheck');

    // ---- Edit the times: Monday moves to 07:15, Wednesday 14:15 is added.
    table = await openRules(page);
    await rowOf(table, ruleName).getByRole('button', { name: 'Detail' }).click();
    await page.waitForURL(/\/auto-checks\/rules\/\d+$/);
    await step(page, 4, 'Times').click();
    const mondaySlot = page.getByRole('combobox', { name: 'Monday time 1' });
    await expect.poll(() => mondaySlot.inputValue()).toBe('09:30');
    await mondaySlot.fill('07:15');
    await mondaySlot.blur();
    await page.getByRole('button', { name: 'Add time on Wednesday' }).click();
    await page.getByRole('combobox', { name: 'Wednesday time 1' }).fill('14:15');
    await page.getByRole('combobox', { name: 'Wednesday time 1' }).blur();
    // Leaving with unsaved changes asks first; staying keeps them.
    await page.getByLabel('Opened pages').getByRole('button', { name: 'Auto Check Rules', exact: true }).click();
    const leave = page.getByRole('alertdialog');
    await shows(leave.getByText('Do you want to leave? you will lose all changes!'));
    await leave.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('combobox', { name: 'Wednesday time 1' }).inputValue()).toBe('14:15');
    await closePushToasts(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, `Update rule ${ruleName} success.`);
    await page.waitForURL('**/auto-checks/rules');

    // ---- The calendar shows the new slot.
    table = page.getByRole('table', { name: 'Auto Check Rules' });
    await page.getByRole('button', { name: 'Calendar' }).click();
    await page.waitForURL('**/auto-checks/calendar');
    const slot = page.locator('[data-slot="3 14:15"]');
    await shows(slot);
    expect(await slot.textContent()).toContain(`${ruleName} · 1 site`);
    expect(await page.locator('[data-slot="1 09:30"]').filter({ hasText: ruleName }).count()).toBe(0);
    await shows(page.locator('[data-slot="1 07:15"]').filter({ hasText: ruleName }));
    await slot.scrollIntoViewIfNeeded();
    await screenshot(page, 'auto-check-calendar');
    await slot.getByRole('button', { name: `${ruleName} · 1 site` }).click();
    await page.waitForURL(/\/auto-checks\/rules\/\d+$/);

    // ---- Disable, then delete.
    table = await openRules(page);
    row = rowOf(table, ruleName);
    await row.getByRole('switch', { name: 'Enable' }).click();
    await expect.poll(() => rowOf(table, ruleName).getByRole('switch').isChecked()).toBe(false);
    await expect
      .poll(async () => ((await (await cellOf(table, rowOf(table, ruleName), 'Next Run')).textContent()) ?? '').trim())
      .toBe('/');
    await rowOf(table, ruleName).getByRole('button', { name: 'Delete' }).click();
    await shows(page.getByText(`Confirm Delete Rule ${ruleName}?`));
    await page.getByRole('button', { name: 'OK', exact: true }).click();
    await toast(page, `Delete rule ${ruleName} success.`);
    await expect.poll(() => rowOf(table, ruleName).count()).toBe(0);

    expect(console.errors).toEqual([]);
  });
});
