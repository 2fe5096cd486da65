import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAuth } from '@/app/auth';
import { jsonResponse, operator, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import SecurityPage from './SecurityPage';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const renderPage = () =>
  renderRoutes(
    [
      { path: '/setting/security', element: <SecurityPage /> },
      { path: '/auth/login', element: <p>Login screen</p> },
    ],
    '/setting/security',
    operator,
  );
const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-efghi`);

describe('SecurityPage: the authenticator app', () => {
  it('asks for the current password, then sets the app up from the QR code and key, and shows the recovery codes once', async () => {
    let totp = false;
    const api = stubApi({
      'GET /me/factors': () => ({ totp, passkeys: [], recovery_codes_left: totp ? 10 : 0 }),
      'GET /me/passkeys': () => [],
      'POST /me/totp': ({ body }) =>
        (body as { password?: string }).password === 'my-pass-1'
          ? { secret: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', otpauth_url: 'otpauth://totp/Patrol:olivia?secret=ABCD' }
          : jsonResponse(
              {
                code: 4000,
                msg: 'Current password is wrong',
                extra: { password: 'Current password is wrong' },
                request_id: 'r',
              },
              400,
            ),
      'POST /me/totp/confirm': ({ body }) => {
        if ((body as { code: string }).code !== '123456')
          return jsonResponse({ code: 4014, msg: 'Wrong code', request_id: 'r' }, 400);
        totp = true;
        return { recovery_codes: codes };
      },
    });
    renderPage();
    const user = userEvent.setup({ delay: null });
    const panel = await screen.findByRole('region', { name: 'Authenticator app' });
    await within(panel).findByText('Off');
    await user.click(within(panel).getByRole('button', { name: 'Set up the authenticator app' }));
    // The password first, in a dialog: nothing is asked of the server without it.
    const dialog = await screen.findByRole('dialog', { hidden: true });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await within(dialog).findByText('Please input current password!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/me/totp')).toHaveLength(0);
    const password = within(dialog).getByLabelText(/^Current password/);
    expect(password).toHaveAttribute('type', 'password');
    await user.type(password, 'wrong-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await within(dialog).findByText('Current password is wrong')).toBeInTheDocument();
    expect(within(panel).queryByRole('img', { name: 'QR code for the authenticator app' })).toBeNull();
    await user.clear(password);
    await user.type(password, 'my-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await within(panel).findByRole('img', { name: 'QR code for the authenticator app' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png;base64,/),
    );
    expect(within(panel).getByTestId('totp-secret')).toHaveTextContent('ABCD EFGH IJKL MNOP QRST UVWX YZ23 4567');
    const code = within(panel).getByLabelText(/^Code from the authenticator app/);
    await user.type(code, '12345');
    await user.click(within(panel).getByRole('button', { name: 'Confirm' }));
    expect(await within(panel).findByText('The code has 6 digits')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(within(panel).getByRole('button', { name: 'Confirm' }));
    expect(await within(panel).findByText('Wrong code.')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(within(panel).getByRole('button', { name: 'Confirm' }));
    for (const c of codes) expect(await within(panel).findByText(c)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(await within(panel).findByText('Recovery codes left: 10')).toBeInTheDocument();
    expect(within(panel).queryByText(codes[0])).toBeNull();
    // No ticket on this page: the session enrols, with the password typed.
    expect(api.callsTo('POST', '/me/totp').map((c) => c.body)).toEqual([
      { password: 'wrong-pass-1' },
      { password: 'my-pass-1' },
    ]);
    expect(api.callsTo('POST', '/me/totp/confirm').map((c) => c.body)).toEqual([
      { code: '654321' },
      { code: '123456' },
    ]);
  });

  it('removes the app with a current code, then signs out (the sessions ended)', async () => {
    const api = stubApi({
      'GET /me/factors': () => ({ totp: true, passkeys: [], recovery_codes_left: 7 }),
      'GET /me/passkeys': () => [],
      'DELETE /me/totp': () => null,
    });
    renderPage();
    const user = userEvent.setup({ delay: null });
    const panel = await screen.findByRole('region', { name: 'Authenticator app' });
    await within(panel).findByText('Recovery codes left: 7');
    await user.click(within(panel).getByRole('button', { name: 'Remove the app' }));
    // By text, not role: computing roles over an open Fluent dialog takes jsdom seconds.
    await screen.findByText('Enter a current code to remove the app. You will be signed out everywhere.');
    await user.type(screen.getByLabelText(/^Code from the authenticator app/), '222333');
    await user.click(screen.getByText('Remove', { selector: 'button' }));
    expect(await screen.findByText('Login screen')).toBeInTheDocument();
    await waitFor(() => expect(getAuth()).toBeNull());
    expect(api.callsTo('DELETE', '/me/totp')[0]?.body).toEqual({ code: '222333' });
  });
});
