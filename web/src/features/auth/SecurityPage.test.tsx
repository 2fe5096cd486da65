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
  it('sets the app up from the QR code and key, confirms a code and shows the recovery codes once', async () => {
    let totp = false;
    const api = stubApi({
      'GET /me/factors': () => ({ totp, passkeys: [], recovery_codes_left: totp ? 10 : 0 }),
      'GET /me/passkeys': () => [],
      'POST /me/totp': () => ({
        secret: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
        otpauth_url: 'otpauth://totp/Patrol:olivia?secret=ABCD',
      }),
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
    // No ticket on this page: the session enrols.
    expect(api.callsTo('POST', '/me/totp')[0]?.body).toEqual({});
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
