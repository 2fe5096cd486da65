import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, ok, Providers } from '@/test/renderApp';
import { SiteAccountsDialog } from './SiteAccountsDialog';

vi.setConfig({ testTimeout: 60_000 });

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function openDialog() {
  render(
    <Providers>
      <SiteAccountsDialog open site={{ id: 3, name: 'Alpha' }} onClose={vi.fn()} />
    </Providers>,
  );
  return { user: userEvent.setup({ delay: null }), confirm: screen.getByRole('button', { name: 'Confirm' }) };
}

const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

describe('Site Accounts dialog, New Account tab', () => {
  it('asks for each account field before sending anything, and drops a message once the field is filled', async () => {
    const d = openDialog();
    await d.user.click(d.confirm);
    expect(screen.getByText('Please enter this account')).toBeInTheDocument();
    expect(screen.getByText('Please enter this password')).toBeInTheDocument();
    await d.user.type(screen.getByRole('textbox', { name: 'Account 1' }), 'agent01');
    expect(screen.queryByText('Please enter this account')).not.toBeInTheDocument();
    expect(screen.getByText('Please enter this password')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed accounts, then shows All Accounts', async () => {
    const row = { id: 9, site_id: 3, user: 'agent01', enable: true, status: 1, created_at: 1, site: null };
    // The POST answers the added rows, the All Accounts tab then reads the site's accounts.
    fetchMock.mockImplementation(async () => jsonResponse(ok([row])));
    const d = openDialog();
    await d.user.type(screen.getByRole('textbox', { name: 'Account 1' }), ' agent01 ');
    await d.user.type(screen.getByLabelText('Password 1'), 'sandbox123');
    await d.user.click(d.confirm);
    expect(await screen.findByRole('table', { name: 'All Accounts' })).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
    });
    expect(calls()[0]).toMatch(/^POST .*\/sites\/3\/accounts$/);
    expect((await screen.findAllByText('Add account success.'))[0]).toBeInTheDocument();
  });

  it('puts the server’s field message on its row and stays on the tab when the accounts are refused', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        { code: 4001, msg: 'bad', extra: { 'accounts.0.user': 'This account is refused' }, request_id: 'r1' },
        400,
      ),
    );
    const d = openDialog();
    await d.user.type(screen.getByRole('textbox', { name: 'Account 1' }), 'agent01');
    await d.user.type(screen.getByLabelText('Password 1'), 'sandbox123');
    await d.user.click(d.confirm);
    expect((await screen.findAllByText('This account is refused')).length).toBeGreaterThan(0);
    const account = screen.getByRole('textbox', { name: 'Account 1' });
    expect(account).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('tabpanel', { name: 'New Account' })).toBeInTheDocument();
    // Editing the row drops the server's message on it.
    await d.user.type(account, '2');
    expect(account).not.toHaveAttribute('aria-invalid', 'true');
  });
});
