// Alert rules end to end (issue 45 item 2), in Chromium against the real stack and the sandbox KBZ
// portal: an operator opens Bank Monitor → Alert rules, types a condition with a syntax error (the
// editor points at its column), fixes it, previews it (the account's large credit, stored by a real
// poll, is listed) and saves it (the list shows it).
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';
import { until } from '../helpers/until.js';
import { browserSession, collectConsoleErrors, rowOf, screenshot, shows } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const session = browserSession(stack.url);
const PASSWORD = 'rules-e2e-pass-1';
const AMOUNT = 8_642_531;

afterAll(() => k.destroy());

/** A KBZ account whose last poll stored a credit of AMOUNT, made through the API and the sandbox. */
async function accountWithLargeCredit(): Promise<{ id: number; user: string }> {
  const token = await k.admin();
  const post = (path: string, body: unknown = {}) => k.client.post(`/api/v1${path}`, { token, body });
  const user = uniqueName('rulese2e').toLowerCase();
  const created = await post('/bank/bank-accounts', { bank_name: 1, user, pwd: 'sandbox123' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as number;
  await refreshedAccount((p) => post(p), id);
  const subs = await k.client.get(`/api/v1/bank/bank-account/${id}/sub`, { token });
  const no = (subs.body.data as { no: string }[])[0]?.no;
  const res = await fetch(`${stack.env.SANDBOX_BANK_URL}/__sandbox/bank/transaction`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bank: 1, user, no, amount: AMOUNT, inflow: true, name: 'U Ba' }),
  });
  expect(res.status).toBeLessThan(300);
  expect((await post(`/bank/bank-account/${id}/refresh-sts`)).status).toBe(200);
  return { id, user };
}

/** Bank Monitor → Alert rules from the left menu, pressed again if the home page was still loading. */
async function openAlertRules(page: Page, texts = { group: 'Bank Monitor', entry: 'Alert rules' }) {
  const menu = page.getByRole('navigation', { name: texts.group === 'Bank Monitor' ? 'Main menu' : '主菜单' });
  const group = menu.getByRole('button', { name: texts.group, exact: true });
  // A fresh sign-in's home page may take a while on a loaded machine before the menu is there.
  await shows(group, 60_000);
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  const link = menu.getByRole('link', { name: texts.entry, exact: true });
  await until(
    'the Alert rules screen',
    async () => {
      await link.click();
      return page
        .waitForURL((url) => url.pathname === '/bank/alert-rules', { timeout: 5000 })
        .then(
          () => true,
          () => false,
        );
    },
    (opened) => opened,
    { ms: 60_000, everyMs: 0 },
  );
}

describe('Alert rules', () => {
  it('points at a syntax error as one types, previews the fixed rule and saves it', async () => {
    const account = await accountWithLargeCredit();
    const name = uniqueName('e2erules');
    await k.createUser(name, PASSWORD, 'operator');
    const page = await session.signedIn(name, PASSWORD);
    const errors = collectConsoleErrors(page);
    await openAlertRules(page);
    const table = page.getByRole('table', { name: 'Alert rules' });
    await shows(table);

    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'New alert rule' });
    await shows(dialog);
    const ruleName = uniqueName('Large credit ');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(ruleName);
    const condition = dialog.getByRole('textbox', { name: 'Condition' });
    // A syntax error: 5,000,00 is no amount (thousands come in groups of three).
    await condition.pressSequentially(`credit > 5,000,00 or debit > 9,000,000`);
    const problem = dialog.getByTestId('expression-problem');
    await shows(problem);
    expect(await problem.textContent()).toContain('Column 10: expected an amount such as 1,000,000, found "5,000,00"');
    // The caret stands under column 10.
    const pointer = (await problem.locator('pre').textContent()) ?? '';
    expect(pointer.split('\n')[1]).toBe(`${' '.repeat(9)}^`);
    expect(await dialog.getByRole('button', { name: 'Preview' }).isDisabled()).toBe(true);
    await screenshot(page, 'alert-rule-syntax-error');

    await condition.fill(`credit > 5,000,000 or debit > 9,000,000`);
    await problem.waitFor({ state: 'detached' });
    await dialog.getByRole('radio', { name: 'Chosen accounts' }).check();
    const accounts = dialog.getByRole('combobox', { name: 'Accounts' });
    // The shared stack holds many accounts: typing finds this one.
    await accounts.click();
    await accounts.pressSequentially(account.user);
    // A multiselect's options are menu item checkboxes (Fluent's Combobox).
    await page.getByRole('menuitemcheckbox', { name: `KBZ · ${account.user}` }).click();
    await accounts.press('Escape');
    await shows(dialog.getByText(`KBZ · ${account.user}`, { exact: true }));
    await dialog.getByRole('radio', { name: 'Critical' }).check();
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = dialog.getByTestId('rule-preview');
    await shows(preview);
    await shows(preview.getByText('Would have fired once in the last 7 days'));
    const firing = (await preview.getByRole('listitem').first().textContent()) ?? '';
    expect(firing).toContain(`KBZ · ${account.user} · credit 8,642,531`);
    await screenshot(page, 'alert-rule-preview');

    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await shows(page.getByText(`Save alert rule ${ruleName} success.`, { exact: true }));
    await dialog.waitFor({ state: 'detached' });
    const row = rowOf(table, ruleName);
    await shows(row);
    await shows(row.getByText('credit > 5,000,000 or debit > 9,000,000'));
    await shows(row.getByText(`KBZ · ${account.user}`));
    await shows(row.getByText('Critical'));
    await shows(row.getByText('Bank chat'));
    await screenshot(page, 'alert-rules-list');
    expect(errors.errors).toEqual([]);
  });

  it('reads in Chinese', async () => {
    const page = await session.signedIn('admin', stack.adminPassword, { locale: 'zh' });
    await openAlertRules(page, { group: '银行监控', entry: '告警规则' });
    await shows(page.getByRole('table', { name: '告警规则' }));
    await page.getByRole('button', { name: '新建规则' }).click();
    const dialog = page.getByRole('alertdialog', { name: '新建告警规则' });
    await shows(dialog);
    await dialog.getByRole('textbox', { name: '条件' }).pressSequentially('balance < 1,000,000 or');
    await shows(dialog.getByText('第 23 列：应为一个指标', { exact: false }));
    await screenshot(page, 'alert-rule-editor-zh');
  });
});
