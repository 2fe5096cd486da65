import { type BankAccountStatusValue, statementListFields } from '@shared/schemas/bank';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import BankAccountDetailPage from './BankAccountDetailPage';
import { listOf, makeAccount, makeStatement, makeSub } from './testRows';

vi.setConfig({ testTimeout: 90_000 });
afterEach(() => vi.unstubAllGlobals());

function openDetail(routes: Parameters<typeof stubApi>[0]) {
  const api = stubApi({
    'GET /bank/statements': listOf(
      [
        makeStatement({ id: 1, sub_account_id: 11, name: 'Sender of 11' }),
        makeStatement({ id: 2, sub_account_id: 12, name: 'Sender of 12' }),
      ],
      statementListFields,
    ),
    ...routes,
  });
  renderRoutes([{ path: '/bank/accounts/:accountID', element: <BankAccountDetailPage /> }], '/bank/accounts/5');
  return { api, user: userEvent.setup({ delay: null }) };
}

describe('Bank Account detail', () => {
  it('shows the header, and a vertical tab per sub-account in a splitter at 20 (10 to 20)', async () => {
    const { api, user } = openDetail({ 'GET /bank/bank-accounts/5': () => makeAccount({ stale: true }) });
    expect(await screen.findByRole('heading', { name: 'KBZ · kbz-user' })).toBeInTheDocument();
    expect(screen.getAllByText('Stale').length).toBeGreaterThan(0);
    expect(screen.getByText('Enable')).toBeInTheDocument();

    const tabs = screen.getByRole('tablist', { name: 'Sub accounts' });
    expect(tabs).toHaveAttribute('aria-orientation', 'vertical');
    const [first, second] = within(tabs).getAllByRole('tab');
    expect(first).toHaveAccessibleName(/^0011-2233-4455/);
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(second).toHaveAccessibleName(/^0011-9999-0000.*Disable/);
    const splitter = screen.getByRole('separator', { name: 'Resize sub-account list' });
    expect(splitter).toHaveAttribute('aria-valuenow', '20');
    expect(splitter).toHaveAttribute('aria-valuemin', '10');
    expect(splitter).toHaveAttribute('aria-valuemax', '20');
    splitter.focus();
    await user.keyboard('{ArrowRight}');
    expect(splitter).toHaveAttribute('aria-valuenow', '20');
    await user.keyboard('{Home}');
    expect(splitter).toHaveAttribute('aria-valuenow', '10');

    // The first sub-account: its KBZ detail fields and its own statements.
    const panel = screen.getByRole('tabpanel');
    const extra = within(panel).getByRole('region', { name: 'Extra Information' });
    expect(within(extra).getByText('Customer Name')).toBeInTheDocument();
    expect(within(extra).getByText('U Aung')).toBeInTheDocument();
    expect(within(extra).getByText('Available: 1,500.50 MMK')).toBeInTheDocument();
    const statements = within(panel).getByRole('table', { name: 'Bank Statements' });
    expect(await within(statements).findByText('Sender of 11')).toBeInTheDocument();
    expect(within(statements).queryByText('Sender of 12')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/bank/statements').at(-1)?.params.get('sub_account_id')).toBe('=-11');

    await user.click(within(tabs).getByRole('tab', { name: /0011-9999-0000/ }));
    expect(await within(screen.getByRole('tabpanel')).findByText('Sender of 12')).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Enable' })).toBeInTheDocument();
  });

  it('offers Init Account when there is no sub-account, and shows them after reloading', async () => {
    let initialised = false;
    const { api, user } = openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount({ subs: initialised ? [makeSub()] : [] }),
      'POST /bank/bank-account/5/refresh': () => {
        initialised = true;
        return {
          account_id: 5,
          polled: true,
          status: 1,
          subs: 1,
          new_statements: 0,
          new_balance_stats: 0,
          error: null,
        };
      },
    });
    expect(await screen.findByText('No Account.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Init Account' }));
    await findToast('Init success');
    expect(await screen.findByRole('tab', { name: '0011-2233-4455' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/bank/bank-account/5/refresh')).toHaveLength(1);
    expect(api.callsTo('GET', '/bank/bank-accounts/5')).toHaveLength(2);
  });

  it('tells Init failed with the bank’s reason when the bank refuses the login, and reloads the status', async () => {
    let status: BankAccountStatusValue = 1;
    openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount({ subs: [], status }),
      'POST /bank/bank-account/5/refresh': () => {
        status = 2;
        return {
          account_id: 5,
          polled: true,
          status: 2,
          subs: 0,
          new_statements: 0,
          new_balance_stats: 0,
          error: 'Wrong password',
        };
      },
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Init Account' }));
    await findToast('Init failed');
    expect(screen.getAllByText('Wrong password').length).toBeGreaterThan(0);
    expect(await screen.findByText('Incorrect')).toBeInTheDocument();
    expect(screen.queryByText('Init success')).not.toBeInTheDocument();
  });

  it('disables an enabled account with status 99 and then offers Enable', async () => {
    let status: BankAccountStatusValue = 1;
    const { api, user } = openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount({ status }),
      'PUT /bank/bank-account/5': ({ body }) => {
        status = (body as { status: BankAccountStatusValue }).status;
        return makeAccount({ status });
      },
    });
    await screen.findByRole('heading', { name: 'KBZ · kbz-user' });
    const header = screen.getByRole('heading', { name: 'KBZ · kbz-user' }).parentElement?.parentElement as HTMLElement;
    await user.click(within(header).getByRole('button', { name: 'Disable' }));
    expect(await within(header).findByRole('button', { name: 'Enable' })).toBeInTheDocument();
    await user.click(within(header).getByRole('button', { name: 'Enable' }));
    expect(await within(header).findByRole('button', { name: 'Disable' })).toBeInTheDocument();
    expect(api.callsTo('PUT', '/bank/bank-account/5').map((c) => c.body)).toEqual([{ status: 99 }, { status: 1 }]);
  });

  it('asks for a webhook with the spec’s rule and sends it trimmed', async () => {
    const { api, user } = openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount(),
      'PUT /bank/bank-account/5': () => makeAccount({ webhook: 'https://hooks.example.com/bank' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Webhook' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const input = within(dialog).getByRole('textbox', { name: /Webhook URL/, hidden: true });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm', hidden: true });
    await user.click(confirm);
    expect(within(dialog).getByText('Please enter webhook url')).toBeInTheDocument();
    await user.type(input, 'ftp://hooks.example.com');
    await user.click(confirm);
    expect(within(dialog).getAllByText('Please give the full address including http(s)://').length).toBeGreaterThan(0);
    expect(api.callsTo('PUT', '/bank/bank-account/5')).toHaveLength(0);
    await user.clear(input);
    await user.type(input, '  https://hooks.example.com/bank ');
    await user.click(confirm);
    await findToast('Update Account Success.');
    expect(api.callsTo('PUT', '/bank/bank-account/5').map((c) => c.body)).toEqual([
      { webhook: 'https://hooks.example.com/bank' },
    ]);
  });

  it('asks for an API key (required, trimmed) and never shows the stored one unasked', async () => {
    const { api, user } = openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount({ api_key: '******' }),
      'PUT /bank/bank-account/5': () => makeAccount({ api_key: '******' }),
      'GET /bank/bank-account/5/api-key': () => ({ id: 5, api_key: 'k-123' }),
    });
    const show = await screen.findByRole('button', { name: 'Show API key' });
    expect(screen.queryByText('k-123')).not.toBeInTheDocument();
    await user.click(show);
    expect(await screen.findByText('k-123')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit API Key' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm', hidden: true });
    await user.type(within(dialog).getByRole('textbox', { name: /API Key/, hidden: true }), '   ');
    await user.click(confirm);
    expect(within(dialog).getByText('Please enter API key')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /API Key/, hidden: true }), ' new-key ');
    await user.click(confirm);
    await findToast('Update Account Success.');
    expect(api.callsTo('PUT', '/bank/bank-account/5').map((c) => c.body)).toEqual([{ api_key: 'new-key' }]);
  });

  it('warns about an API key shorter than 16 characters while typing, and still saves it', async () => {
    const { api, user } = openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount({ api_key: null }),
      'PUT /bank/bank-account/5': () => makeAccount({ api_key: '******' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit API Key' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const input = within(dialog).getByRole('textbox', { name: /API Key/, hidden: true });
    const warning = 'A key this short is easy to guess; use 16 characters or more';
    await user.type(input, 'k1');
    expect(within(dialog).getByText(warning)).toBeInTheDocument();
    await user.type(input, '-0123456789abcd');
    expect(within(dialog).queryByText(warning)).not.toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'short-key');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    await findToast('Update Account Success.');
    expect(api.callsTo('PUT', '/bank/bank-account/5').map((c) => c.body)).toEqual([{ api_key: 'short-key' }]);
  });

  it('reveals the signing secret only when asked, and rotates it after a confirmation', async () => {
    let secret = 'whsec_b2xk';
    const { api, user } = openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount({ webhook: 'https://receiver.example/hook' }),
      'GET /bank/bank-account/5/webhook-secret': () => ({ id: 5, webhook_secret: secret }),
      'POST /bank/bank-account/5/webhook-secret': () => {
        secret = 'whsec_bmV3';
        return { id: 5, webhook_secret: secret };
      },
    });
    const show = await screen.findByRole('button', { name: 'Show signing secret' });
    expect(screen.queryByText('whsec_b2xk')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/bank/bank-account/5/webhook-secret')).toHaveLength(0);
    await user.click(show);
    expect(await screen.findByText('whsec_b2xk')).toBeInTheDocument();

    // Cancel keeps the secret; Rotate replaces it, and the next reveal shows the new one.
    await user.click(screen.getByRole('button', { name: 'Rotate signing secret' }));
    let confirm = await screen.findByRole('alertdialog', { hidden: true });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel', hidden: true }));
    expect(api.callsTo('POST', '/bank/bank-account/5/webhook-secret')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Rotate signing secret' }));
    confirm = await screen.findByRole('alertdialog', { hidden: true });
    await user.click(within(confirm).getByRole('button', { name: 'Rotate', hidden: true }));
    await findToast('Signing secret rotated.');
    expect(api.callsTo('POST', '/bank/bank-account/5/webhook-secret')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Hide signing secret' }));
    await user.click(screen.getByRole('button', { name: 'Show signing secret' }));
    expect(await screen.findByText('whsec_bmV3')).toBeInTheDocument();
  });

  it('shows the failure tip in place of the page when the account cannot be loaded', async () => {
    openDetail({});
    expect((await screen.findAllByText('Loading account failed')).length).toBeGreaterThan(0);
  });
});

describe('Bank Account detail: a paused webhook', () => {
  it('says the webhook is paused and resumes it', async () => {
    let paused = true;
    const state = () => ({
      account_id: 5,
      paused,
      paused_at: paused ? 1 : null,
      consecutive_failures: 20,
      failing_since: null,
    });
    const { api, user } = openDetail({
      'GET /bank/bank-accounts/5': () => makeAccount({ webhook: 'https://receiver.example/hook' }),
      'GET /bank/bank-account/5/webhook-state': state,
      'POST /bank/bank-account/5/webhook-resume': () => {
        paused = false;
        return state();
      },
    });
    expect(await screen.findByText('Paused after 20 failures')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await findToast('Webhook resumed.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/bank/bank-account/5/webhook-resume')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Paused after 20 failures')).not.toBeInTheDocument());
  });
});
