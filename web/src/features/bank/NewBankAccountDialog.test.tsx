import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, Providers } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import { NewBankAccountDialog } from './NewBankAccountDialog';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

async function openDialog() {
  const onCreated = vi.fn();
  const user = userEvent.setup({ delay: null });
  render(
    <Providers>
      <NewBankAccountDialog onCreated={onCreated} />
    </Providers>,
  );
  await user.click(screen.getByRole('button', { name: 'NewBankAccount' }));
  const dialog = await screen.findByRole('alertdialog', { hidden: true });
  return { user, onCreated, dialog };
}

describe('New Bank Account dialog', () => {
  it('starts on bank KBZ (1) and asks for the user and the password before sending anything', async () => {
    const api = stubApi({});
    const { user, dialog } = await openDialog();
    expect(within(dialog).getByRole('radio', { name: 'KBZ', hidden: true })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(within(dialog).getByText('Please enter user')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter password')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('treats blank input as empty', async () => {
    const api = stubApi({});
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByRole('textbox', { name: /User/, hidden: true }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(within(dialog).getByText('Please enter user')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('sends the chosen bank with the trimmed user and password, then reloads the list', async () => {
    const api = stubApi({ 'POST /bank/bank-accounts': ({ body }) => ({ id: 5, ...(body as object) }) });
    const { user, onCreated, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'AYA', hidden: true }));
    await user.type(within(dialog).getByRole('textbox', { name: /User/, hidden: true }), ' aya-user ');
    await user.type(within(dialog).getByLabelText(/Password/), ' secret1 ');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    await findToast('Add bank account success');
    expect(api.callsTo('POST', '/bank/bank-accounts')[0]?.body).toEqual({
      bank_name: 2,
      user: 'aya-user',
      pwd: 'secret1',
    });
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(screen.queryByRole('alertdialog', { hidden: true })).not.toBeInTheDocument();
  });

  it('stays open with the failure tip when the server refuses the account', async () => {
    stubApi({
      'POST /bank/bank-accounts': () =>
        new Response(JSON.stringify({ code: 4093, msg: 'This bank account already exists.', request_id: 'r' }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        }),
    });
    const { user, onCreated, dialog } = await openDialog();
    await user.type(within(dialog).getByRole('textbox', { name: /User/, hidden: true }), 'kbz-user');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    await findToast('Add bank account failed');
    expect(onCreated).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog', { hidden: true })).toBeInTheDocument();
  });
});
