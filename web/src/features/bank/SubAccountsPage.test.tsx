import { subAccountListFields } from '@shared/schemas/bank';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, Providers } from '@/test/renderApp';
import { serverError, stubApi } from '@/test/stubApi';
import SubAccountsPage from './SubAccountsPage';
import { listOf, makeSub } from './testRows';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const subs = [makeSub({ id: 1, no: 'A-001' }), makeSub({ id: 2, no: 'B-002' }), makeSub({ id: 3, no: 'C-003' })];

async function openPage(batch: Parameters<typeof stubApi>[0][string]) {
  const api = stubApi({
    'GET /bank/sub-accounts': listOf(subs, subAccountListFields),
    'PUT /bank/sub-accounts/batch': batch,
  });
  const user = userEvent.setup({ delay: null });
  render(
    <Providers>
      <MemoryRouter>
        <SubAccountsPage />
      </MemoryRouter>
    </Providers>,
  );
  const table = await screen.findByRole('table', { name: 'Bank Sub Account' });
  await within(table).findByText('A-001');
  return { api, user, table };
}

describe('Bank Sub Account page', () => {
  it('keeps the batch menu disabled with its tip until sub-accounts are selected', async () => {
    const { api, user } = await openPage(() => ({}));
    const batch = screen.getByRole('button', { name: 'Batch' });
    expect(batch).toHaveAttribute('aria-disabled', 'true');
    await user.hover(batch);
    expect(await screen.findByText('Please select some sub accounts first')).toBeInTheDocument();
    await user.click(batch);
    expect(screen.queryByRole('menuitem')).not.toBeInTheDocument();
    expect(api.callsTo('PUT', '/bank/sub-accounts/batch')).toHaveLength(0);
  });

  it('enables the selected sub-accounts in one call, tells so and clears the selection', async () => {
    const { api, user, table } = await openPage(() => ({ updated: 2 }));
    const rows = within(table).getAllByRole('checkbox', { name: 'Select row' });
    await user.click(rows[0]);
    await user.click(rows[2]);
    await user.click(screen.getByRole('button', { name: 'Batch (2)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Batch enable' }));
    await findToast('Batch enable sub accounts success');
    expect(api.callsTo('PUT', '/bank/sub-accounts/batch').map((c) => c.body)).toEqual([
      { sub_account_ids: [1, 3], status: 1 },
    ]);
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Batch' })).toHaveAttribute('aria-disabled', 'true'),
    );
  });

  it('disables with status 99, and keeps the selection with the failure tip when the call fails', async () => {
    const { api, user, table } = await openPage(serverError);
    await user.click(within(table).getAllByRole('checkbox', { name: 'Select row' })[1]);
    await user.click(screen.getByRole('button', { name: 'Batch (1)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Batch disable' }));
    await findToast('Batch disabled sub accounts failed');
    expect(api.callsTo('PUT', '/bank/sub-accounts/batch').map((c) => c.body)).toEqual([
      { sub_account_ids: [2], status: 99 },
    ]);
    expect(screen.getByRole('button', { name: 'Batch (1)' })).toBeInTheDocument();
  });
});
