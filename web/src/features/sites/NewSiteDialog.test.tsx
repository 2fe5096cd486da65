import { screen } from '@testing-library/react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, ok, Providers } from '@/test/renderApp';
import { NewSiteDialog } from './NewSiteDialog';

vi.setConfig({ testTimeout: 60_000 });

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function openDialog() {
  const onClose = vi.fn();
  render(
    <Providers>
      <NewSiteDialog open onClose={onClose} />
    </Providers>,
  );
  return {
    user: userEvent.setup({ delay: null }),
    onClose,
    name: screen.getByRole('textbox', { name: /Site Name/ }),
    url: screen.getByRole('textbox', { name: /Site URL/ }),
    confirm: screen.getByRole('button', { name: 'Confirm' }),
    addRow: screen.getByRole('button', { name: 'Add account' }),
  };
}

const sentBody = () => JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));

describe('New Site dialog', () => {
  it('asks for the name, the url and each account field before sending anything', async () => {
    const d = openDialog();
    await d.user.click(d.confirm);
    expect(screen.getByText('Please enter site name')).toBeInTheDocument();
    expect(screen.getByText('Please enter site url')).toBeInTheDocument();
    expect(screen.getByText('Please enter this account')).toBeInTheDocument();
    expect(screen.getByText('Please enter this password')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('adds another account row only when the rows above are filled', async () => {
    const d = openDialog();
    await d.user.click(d.addRow);
    expect(screen.getByText('Please enter this account')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Account 2' })).not.toBeInTheDocument();

    await d.user.type(screen.getByRole('textbox', { name: 'Account 1' }), 'agent01');
    expect(screen.queryByText('Please enter this account')).not.toBeInTheDocument();
    await d.user.click(d.addRow);
    expect(screen.getByText('Please enter this password')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Account 2' })).not.toBeInTheDocument();

    await d.user.type(screen.getByLabelText('Password 1'), 'sandbox123');
    await d.user.click(d.addRow);
    expect(screen.getByRole('textbox', { name: 'Account 2' })).toBeInTheDocument();
  });

  it('treats blank input as empty and reveals a password on request', async () => {
    const d = openDialog();
    await d.user.type(d.name, '   ');
    const pwd = screen.getByLabelText('Password 1');
    await d.user.type(pwd, 'secret');
    expect(pwd).toHaveAttribute('type', 'password');
    await d.user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(pwd).toHaveAttribute('type', 'text');
    await d.user.click(d.confirm);
    expect(screen.getByText('Please enter site name')).toBeInTheDocument();
  });

  it('sends an address typed without a scheme as https and trims every value', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(ok({ id: 7, name: 'Alpha', url: 'https://alpha.test', available_account_cnt: 1, enable: true })),
    );
    const d = openDialog();
    await d.user.type(d.name, ' Alpha ');
    await d.user.type(d.url, 'alpha.test');
    await d.user.type(screen.getByRole('textbox', { name: 'Account 1' }), ' agent01 ');
    await d.user.type(screen.getByLabelText('Password 1'), 'sandbox123');
    await d.user.click(d.confirm);
    await vi.waitFor(() => expect(d.onClose).toHaveBeenCalled());
    expect(sentBody()).toEqual({
      name: 'Alpha',
      url: 'https://alpha.test',
      accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
      // A new site is no control site; the list's Control switch makes one.
      control: false,
    });
    expect((await screen.findAllByText('Add site success'))[0]).toBeInTheDocument();
  });

  it('puts the server’s field message on the field and stays open when the site is refused', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        { code: 4091, msg: 'exists', extra: { name: 'A site named Alpha already exists' }, request_id: 'r1' },
        409,
      ),
    );
    const d = openDialog();
    await d.user.type(d.name, 'Alpha');
    await d.user.type(d.url, 'http://alpha.test');
    await d.user.click(screen.getByRole('button', { name: 'Remove account 1' }));
    await d.user.click(d.confirm);
    expect((await screen.findAllByText('Add site failed'))[0]).toBeInTheDocument();
    expect(screen.getAllByText('A site named Alpha already exists').length).toBeGreaterThan(0);
    expect(sentBody()).toEqual({ name: 'Alpha', url: 'http://alpha.test', accounts: [], control: false });
    expect(d.onClose).not.toHaveBeenCalled();
  });
});
