import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuth } from '@/app/auth';
import { jsonResponse, operator, Providers, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import { browserWebAuthn, passkeyPlace } from './passkeyApi';
import { PasskeySignInButton } from './PasskeySignInButton';
import { PasskeysPanel } from './PasskeysPanel';

// The browser's WebAuthn calls stand in for the authenticator; everything else runs as in the app.
const startRegistration = vi.spyOn(browserWebAuthn, 'startRegistration');
const startAuthentication = vi.spyOn(browserWebAuthn, 'startAuthentication');
vi.setConfig({ testTimeout: 30_000 });

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const laptop = { id: 'cred-1', name: 'Laptop', created_at: T0, last_used_at: null };

beforeEach(() => {
  // jsdom has no WebAuthn: a browser that has it is one with PublicKeyCredential.
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  startRegistration.mockReset();
  startAuthentication.mockReset();
});

/** The panel on a page of its own, signed in, with the login page to be sent to. */
const renderPanel = () =>
  renderRoutes(
    [
      { path: '/setting/security', element: <PasskeysPanel /> },
      { path: '/auth/login', element: <p>Login screen</p> },
    ],
    '/setting/security',
    operator,
  );

describe('PasskeysPanel', () => {
  it('lists the passkeys with when each was added and last used', async () => {
    stubApi({ 'GET /me/passkeys': () => [laptop, { ...laptop, id: 'cred-2', name: 'Phone', last_used_at: T0 }] });
    renderPanel();
    const table = await screen.findByRole('table', { name: 'Passkeys' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Laptop');
    expect(rows[1]).toHaveTextContent('Never');
    expect(rows[2]).toHaveTextContent('Phone');
    expect(rows[2]).not.toHaveTextContent('Never');
  });

  it('adds a passkey under the name typed: options, the browser, then the answer with the name', async () => {
    let stored = [] as (typeof laptop)[];
    const api = stubApi({
      'GET /me/passkeys': () => stored,
      'POST /me/passkeys/options': () => ({ challenge: 'abc', rp: { id: 'localhost', name: 'Patrol' } }),
      'POST /me/passkeys': (call) => {
        stored = [{ ...laptop, name: (call.body as { name: string }).name }];
        return stored[0];
      },
    });
    startRegistration.mockResolvedValue({ id: 'cred-1' } as never);
    renderPanel();
    expect(await screen.findByText('No passkeys yet.')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await within(dialog).findByText('Please name the passkey')).toBeInTheDocument();
    expect(within(dialog).getByText('Please input current password!')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/, hidden: true }), 'Work laptop');
    await user.type(within(dialog).getByLabelText(/^Current password/), 'my-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));

    expect(await screen.findByRole('table', { name: 'Passkeys' })).toHaveTextContent('Work laptop');
    expect(startRegistration.mock.calls[0]?.[0]).toEqual({
      optionsJSON: { challenge: 'abc', rp: { id: 'localhost', name: 'Patrol' } },
    });
    expect(api.callsTo('POST', '/me/passkeys/options')[0]?.body).toEqual({ password: 'my-pass-1' });
    expect(api.callsTo('POST', '/me/passkeys')[0]?.body).toEqual({ name: 'Work laptop', response: { id: 'cred-1' } });
  });

  it('shows a wrong current password in the dialog, and asks the browser for nothing', async () => {
    const api = stubApi({
      'GET /me/passkeys': () => [],
      'POST /me/passkeys/options': () =>
        jsonResponse(
          {
            code: 4000,
            msg: 'Current password is wrong',
            extra: { password: 'Current password is wrong' },
            request_id: 'r',
          },
          400,
        ),
    });
    renderPanel();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/, hidden: true }), 'Key');
    const password = within(dialog).getByLabelText(/^Current password/);
    await user.type(password, 'wrong-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await within(dialog).findByText('Current password is wrong')).toBeInTheDocument();
    expect(startRegistration).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/me/passkeys')).toHaveLength(0);
    // Typing again clears the server's word on the field.
    await user.type(password, 'x');
    expect(within(dialog).queryByText('Current password is wrong')).toBeNull();
  });

  it('keeps the dialog open and says so when the browser dialog is cancelled', async () => {
    const api = stubApi({
      'GET /me/passkeys': () => [],
      'POST /me/passkeys/options': () => ({ challenge: 'abc' }),
    });
    startRegistration.mockRejectedValue(Object.assign(new Error('cancelled'), { name: 'NotAllowedError' }));
    renderPanel();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/, hidden: true }), 'Key');
    await user.type(within(dialog).getByLabelText(/^Current password/), 'my-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect((await screen.findAllByText('The passkey request was cancelled or timed out.')).length).toBeGreaterThan(0);
    expect(screen.getByRole('dialog', { hidden: true })).toBeInTheDocument();
    expect(api.callsTo('POST', '/me/passkeys')).toHaveLength(0);
  });

  it('renames a passkey from its row', async () => {
    let stored = [laptop];
    const api = stubApi({
      'GET /me/passkeys': () => stored,
      'PUT /me/passkeys/cred-1': (call) => {
        stored = [{ ...laptop, name: (call.body as { name: string }).name }];
        return stored[0];
      },
    });
    renderPanel();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const name = within(dialog).getByRole('textbox', { name: /^Name/, hidden: true });
    expect(name).toHaveValue('Laptop');
    await user.clear(name);
    await user.type(name, 'Old laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await screen.findByRole('table', { name: 'Passkeys' })).toHaveTextContent('Old laptop');
    expect(api.callsTo('PUT', '/me/passkeys/cred-1')[0]?.body).toEqual({ name: 'Old laptop' });
  });

  it('removes a passkey after a confirmation, and signs out as removing a factor ends every session', async () => {
    const api = stubApi({
      'GET /me/passkeys': () => [laptop],
      'DELETE /me/passkeys/cred-1': () => laptop,
    });
    const { router } = renderPanel();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('alertdialog', { hidden: true });
    expect(confirm).toHaveTextContent('Remove the passkey Laptop?');
    await user.click(within(confirm).getByRole('button', { name: 'Remove', hidden: true }));
    expect(await screen.findByText('Login screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(getAuth()).toBeNull();
    expect(api.callsTo('DELETE', '/me/passkeys/cred-1')).toHaveLength(1);
  });
});

describe('passkeyPlace', () => {
  it('sends the local stack at 127.0.0.1 to localhost, and finds none at another IP address', () => {
    expect(passkeyPlace({ hostname: 'patrol.example.com', href: 'https://patrol.example.com/auth/login' })).toEqual({
      kind: 'here',
    });
    expect(passkeyPlace({ hostname: '127.0.0.1', href: 'http://127.0.0.1:3000/auth/login?redirect=%2F' })).toEqual({
      kind: 'elsewhere',
      url: 'http://localhost:3000/auth/login?redirect=%2F',
    });
    expect(passkeyPlace({ hostname: '10.0.0.5', href: 'http://10.0.0.5:3000/' })).toEqual({ kind: 'none' });
  });
});

describe('PasskeySignInButton', () => {
  it('signs in with a passkey alone and hands the answer on', async () => {
    const answer = { jwt: 'jwt-1', name: 'Olivia', s: 'operator', expires_at: 0 };
    const api = stubApi({
      'POST /login/passkey/options': () => ({ challenge: 'xyz', userVerification: 'required' }),
      'POST /login/passkey': () => answer,
    });
    startAuthentication.mockResolvedValue({ id: 'cred-1' } as never);
    const onAnswer = vi.fn();
    render(
      <Providers>
        <PasskeySignInButton onAnswer={onAnswer} />
      </Providers>,
    );
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(answer));
    expect(api.callsTo('POST', '/login/passkey/options')[0]?.body).toEqual({});
    expect(api.callsTo('POST', '/login/passkey')[0]?.body).toEqual({ response: { id: 'cred-1' } });
  });

  it("sends the password step's ticket as the second step, and shows a refusal", async () => {
    const api = stubApi({
      'POST /login/passkey/options': () => ({ challenge: 'xyz' }),
      'POST /login/passkey': () =>
        jsonResponse({ code: 4019, msg: 'This passkey is not recognised.', request_id: 'r' }, 400),
    });
    startAuthentication.mockResolvedValue({ id: 'cred-9' } as never);
    const onAnswer = vi.fn();
    render(
      <Providers>
        <PasskeySignInButton ticket="tk-1" onAnswer={onAnswer} />
      </Providers>,
    );
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText('This passkey is not recognised.')).toBeInTheDocument();
    expect(onAnswer).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/login/passkey/options')[0]?.body).toEqual({ ticket: 'tk-1' });
    expect(api.callsTo('POST', '/login/passkey')[0]?.body).toEqual({ ticket: 'tk-1', response: { id: 'cred-9' } });
  });

  it('shows nothing in a browser without WebAuthn', () => {
    vi.unstubAllGlobals();
    render(
      <Providers>
        <PasskeySignInButton onAnswer={vi.fn()} />
      </Providers>,
    );
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });
});
