import { bankAccountListFields } from '@shared/schemas/bank';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import BankAccountsPage from './BankAccountsPage';
import { listOf, makeAccount } from './testRows';

vi.setConfig({ testTimeout: 90_000 });
afterEach(() => vi.unstubAllGlobals());

const accounts = [
  makeAccount({ id: 5, user: 'kbz-user', status: 1, stale: true }),
  makeAccount({ id: 6, bank_name: 2, user: 'aya-user', status: 3, stale: false }),
];

function openTable() {
  const api = stubApi({
    'GET /bank/bank-accounts': listOf(accounts, bankAccountListFields),
    'PUT /bank/bank-account/5': ({ body }) => ({ ...accounts[0], ...(body as object) }),
    'GET /bank/bank-account/5/pwd': () => ({ id: 5, pwd: 'p@ss-5' }),
  });
  renderRoutes([{ path: '/bank/accounts', element: <BankAccountsPage /> }], '/bank/accounts');
  return { api, user: userEvent.setup({ delay: null }) };
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

describe('Bank Account table', () => {
  it('shows the status labels of the enum, the stale marker and a masked password revealed on request', async () => {
    const { api, user } = openTable();
    const kbz = await rowOf('kbz-user');
    const aya = await rowOf('aya-user');
    expect(within(kbz).getByText('Enable')).toBeInTheDocument();
    expect(within(kbz).getByText('Stale')).toBeInTheDocument();
    expect(within(aya).getByText('Locked')).toBeInTheDocument();
    expect(within(aya).queryByText('Stale')).not.toBeInTheDocument();
    expect(kbz).not.toHaveTextContent('p@ss-5');
    await user.click(within(kbz).getByRole('button', { name: 'Show password' }));
    expect(await within(kbz).findByText('p@ss-5')).toBeInTheDocument();
    expect(api.callsTo('GET', '/bank/bank-account/5/pwd')).toHaveLength(1);
  });

  it('edits the password in a popup that starts empty, never with the mask', async () => {
    const { api, user } = openTable();
    const kbz = await rowOf('kbz-user');
    await user.click(within(kbz).getByRole('button', { name: 'Edit Pwd' }));
    const popup = await screen.findByRole('dialog');
    const input = within(popup).getByRole('textbox');
    expect(input).toHaveValue('');
    await user.click(within(popup).getByRole('button', { name: 'Save' }));
    await findToast('Please enter password');
    expect(api.callsTo('PUT', '/bank/bank-account/5')).toHaveLength(0);
    await user.type(input, ' n3w-pass ');
    await user.click(within(popup).getByRole('button', { name: 'Save' }));
    await findToast('Update Pwd Success.');
    expect(api.callsTo('PUT', '/bank/bank-account/5').map((c) => c.body)).toEqual([{ pwd: 'n3w-pass' }]);
  });

  it.each([
    ['Holder', 'holder', 'Update Holder Success.'],
    ['Mobile', 'mobile', 'Update Mobile Success.'],
    ['Remark', 'remark', 'Update Remark Success.'],
    ['User', 'user', 'Update User Success.'],
  ])('edits %s inline, trimmed, with its own tip', async (label, field, tip) => {
    const { api, user } = openTable();
    const kbz = await rowOf('kbz-user');
    await user.click(within(kbz).getByRole('button', { name: `Edit ${label}` }));
    const input = within(await screen.findByRole('dialog')).getByRole('textbox');
    // The popup takes the focus: one can type at once.
    await waitFor(() => expect(input).toHaveFocus());
    await user.clear(input);
    await user.type(input, '  value 1  ');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
    await findToast(tip);
    expect(api.callsTo('PUT', '/bank/bank-account/5').map((c) => c.body)).toEqual([{ [field]: 'value 1' }]);
  });
});
