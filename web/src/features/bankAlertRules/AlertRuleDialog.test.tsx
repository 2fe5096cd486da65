import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/i18n';
import { findToast, Providers } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import { AlertRuleDialog } from './AlertRuleDialog';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  void i18n.changeLanguage('en');
});

const ACCOUNTS = {
  'GET /bank/bank-accounts': () => ({
    result: [
      { id: 7, user: 'kbz-ops', bank_name: 1 },
      { id: 8, user: 'aya-ops', bank_name: 2 },
    ],
    total_count: 2,
    page: 1,
    page_size: 0,
  }),
};

async function openDialog() {
  const user = userEvent.setup({ delay: null });
  render(
    <Providers>
      <AlertRuleDialog />
    </Providers>,
  );
  await user.click(screen.getByRole('button', { name: 'New rule' }));
  const dialog = await screen.findByRole('alertdialog', { hidden: true });
  const condition = within(dialog).getByRole('textbox', { name: /Condition/, hidden: true });
  return { user, dialog, condition };
}

describe('alert rule dialog', () => {
  it('marks a condition that does not parse at its column as one types, and clears it once fixed', async () => {
    stubApi(ACCOUNTS);
    const { user, dialog, condition } = await openDialog();
    await user.type(condition, 'balance < 1,000,000 or no_statement_for > 2');
    const problem = await within(dialog).findByTestId('expression-problem');
    expect(problem).toHaveTextContent('Column 43: expected a duration such as 30m, 2h or 1d, found "2"');
    // The caret stands under the column (42 characters before it).
    expect(problem.querySelector('pre')?.textContent?.split('\n')[1]).toBe(`${' '.repeat(40)}^`);
    expect(within(dialog).getByRole('button', { name: 'Preview', hidden: true })).toBeDisabled();
    await user.type(condition, 'h');
    expect(within(dialog).queryByTestId('expression-problem')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Preview', hidden: true })).toBeEnabled();
  });

  it('says what was expected in Chinese', async () => {
    void i18n.changeLanguage('zh');
    stubApi(ACCOUNTS);
    const user = userEvent.setup({ delay: null });
    render(
      <Providers>
        <AlertRuleDialog />
      </Providers>,
    );
    await user.click(screen.getByRole('button', { name: '新建规则' }));
    const dialog = await screen.findByRole('alertdialog', { hidden: true });
    await user.type(within(dialog).getByRole('textbox', { name: /条件/, hidden: true }), 'balance >');
    expect(await within(dialog).findByTestId('expression-problem')).toHaveTextContent(
      '第 10 列：应为一个金额，如 1,000,000，但条件已结束',
    );
  });

  it('refuses to save a condition that does not parse, sending nothing', async () => {
    const api = stubApi(ACCOUNTS);
    const { user, dialog, condition } = await openDialog();
    await user.type(within(dialog).getByRole('textbox', { name: /Name/, hidden: true }), 'Floor');
    await user.type(condition, 'balance < (');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(api.callsTo('POST', '/bank/alert-rules')).toHaveLength(0);
    expect(screen.getByRole('alertdialog', { hidden: true })).toBeInTheDocument();
  });

  it('previews when the rule would have fired on the chosen accounts, then saves it', async () => {
    const at = Date.UTC(2026, 10, 30, 3, 0, 0);
    const api = stubApi({
      ...ACCOUNTS,
      'POST /bank/alert-rules/preview': () => ({
        firings: [
          { at, account_id: 7, figure: 'no_statement_for', value: 2 * 3_600_000 + 300_000 },
          { at: at - 60_000, account_id: 7, figure: 'balance', value: 950_000 },
        ],
        truncated: false,
      }),
      'POST /bank/alert-rules': ({ body }) => ({ id: 3, ...(body as object) }),
    });
    const { user, dialog, condition } = await openDialog();
    await user.type(within(dialog).getByRole('textbox', { name: /Name/, hidden: true }), ' Floor ');
    await user.type(condition, 'balance < 1,000,000 or no_statement_for > 2h');
    await user.click(within(dialog).getByRole('radio', { name: 'Chosen accounts', hidden: true }));
    // Preview waits for the accounts to be chosen.
    expect(within(dialog).getByRole('button', { name: 'Preview', hidden: true })).toBeDisabled();
    const box = within(dialog).getByRole('combobox', { name: 'Accounts', hidden: true });
    await user.click(box);
    // The listbox the combobox opened (a role query over the whole dialog takes jsdom seconds).
    const listbox = document.getElementById(box.getAttribute('aria-controls') ?? '') as HTMLElement;
    await user.click(within(listbox).getByText('KBZ · kbz-ops'));
    await user.click(within(dialog).getByRole('radio', { name: 'Critical', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview', hidden: true }));
    const preview = await within(dialog).findByTestId('rule-preview');
    expect(preview).toHaveTextContent('Would have fired 2 times in the last 7 days');
    expect(
      within(preview)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/KBZ · kbz-ops · no_statement_for 2h 5m$/),
      expect.stringMatching(/KBZ · kbz-ops · balance 950,000$/),
    ]);
    expect(api.callsTo('POST', '/bank/alert-rules/preview')[0]?.body).toEqual({
      expression: 'balance < 1,000,000 or no_statement_for > 2h',
      scope: { kind: 'accounts', account_ids: [7] },
    });

    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    await findToast('Save alert rule Floor success.');
    expect(api.callsTo('POST', '/bank/alert-rules')[0]?.body).toEqual({
      name: 'Floor',
      expression: 'balance < 1,000,000 or no_statement_for > 2h',
      scope: { kind: 'accounts', account_ids: [7] },
      severity: 'critical',
      chat_id: null,
      enabled: true,
    });
  });
});
