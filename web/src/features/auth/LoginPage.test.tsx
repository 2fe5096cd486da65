import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuth } from '@/app/auth';
import { buildRouteObjects } from '@/app/router';
import { jsonResponse, ok, renderRoutes } from '@/test/renderApp';

// Fluent inputs re-render on every keystroke; jsdom makes that slow on a 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const fetchMock = vi.fn<typeof fetch>();
/** Answers of the sign-in calls in the order the test expects them; other calls (the SSO button's status) answer "none". */
const answers: Response[] = [];
const SIGN_IN_CALLS = /\/api\/v1\/(login|captcha|me\/totp)/;
beforeEach(() => {
  answers.length = 0;
  fetchMock.mockImplementation(async (input) =>
    SIGN_IN_CALLS.test(String(input))
      ? (answers.shift() ?? jsonResponse({ code: 5000, msg: 'unexpected', request_id: 'r' }, 500))
      : jsonResponse(ok({ enabled: false })),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});
const answer = (...responses: Response[]) => answers.push(...responses);
/** The sign-in calls made, as [url, parsed body]. */
const signInCalls = () =>
  fetchMock.mock.calls
    .filter(([url]) => SIGN_IN_CALLS.test(String(url)))
    .map(([url, init]) => [String(url), init?.body ? JSON.parse(String(init.body)) : undefined] as const);

async function fillAndSubmit(username: string, password: string) {
  const user = userEvent.setup({ delay: null });
  await user.type(await screen.findByLabelText(/^Username/), username);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('Login', () => {
  it('stores the login and returns to the page the user wanted', async () => {
    answer(jsonResponse(ok({ jwt: 'jwt-1', name: 'Olivia', s: 'operator', expires_at: 0 })));
    const { router } = renderRoutes(buildRouteObjects(), '/auth/login?redirect=%2Fhelp', null);
    await fillAndSubmit(' olivia ', 'secret-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/help'));
    expect(getAuth()).toEqual({ jwt: 'jwt-1', name: 'Olivia', s: 'operator' });
    expect(signInCalls()[0]?.[1]).toEqual({ username: 'olivia', password: 'secret-1' });
  });

  it('says so clearly when the credentials are wrong', async () => {
    answer(jsonResponse({ code: 4011, msg: 'Bad credentials', request_id: 'r' }, 401));
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    await fillAndSubmit('olivia', 'nope');
    expect(await screen.findByText('Wrong username or password.')).toBeInTheDocument();
    expect(getAuth()).toBeNull();
  });

  it('asks for a captcha when the server requires one and sends its answer', async () => {
    answer(
      jsonResponse({ code: 4012, msg: 'Captcha required', request_id: 'r' }, 400),
      jsonResponse(ok({ id: 'cap-1', image: 'data:image/svg+xml;base64,PHN2Zy8+' })),
      jsonResponse(ok({ jwt: 'jwt-2', name: 'Olivia', s: 'super', expires_at: 0 })),
    );
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    const user = await fillAndSubmit('olivia', 'secret-1');
    expect(await screen.findByRole('img', { name: 'Captcha' })).toHaveAttribute(
      'src',
      'data:image/svg+xml;base64,PHN2Zy8+',
    );
    await user.type(screen.getByRole('textbox', { name: /^Captcha/ }), 'x7k2');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(getAuth()?.s).toBe('super'));
    expect(signInCalls()[1]?.[0]).toBe('/api/v1/captcha');
    expect(signInCalls()[2]?.[1]).toMatchObject({
      captcha: { id: 'cap-1', answer: 'x7k2' },
    });
  });

  it('hides other login errors', async () => {
    answer(jsonResponse({ code: 5000, msg: 'Internal boom', request_id: 'r' }, 500));
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    await fillAndSubmit('olivia', 'secret-1');
    await waitFor(() => expect(signInCalls()).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryAllByText('Internal boom')).toHaveLength(0);
  });

  it('asks for the code after the password, sends it with the ticket, and signs in', async () => {
    answer(
      jsonResponse(ok({ second_factor: { ticket: 'tk-1', methods: ['totp', 'recovery'] } })),
      jsonResponse({ code: 4014, msg: 'Wrong code', request_id: 'r' }, 400),
      jsonResponse(ok({ jwt: 'jwt-3', name: 'Olivia', s: 'super', expires_at: 0 })),
    );
    const { router } = renderRoutes(buildRouteObjects(), '/auth/login?redirect=%2Fhelp', null);
    const user = await fillAndSubmit('olivia', 'secret-1');
    const code = await screen.findByLabelText(/^Code from the authenticator app/);
    expect(getAuth()).toBeNull();
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Wrong code.')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/help'));
    expect(getAuth()).toEqual({ jwt: 'jwt-3', name: 'Olivia', s: 'super' });
    expect(signInCalls().slice(1)).toEqual([
      ['/api/v1/login/second-factor', { ticket: 'tk-1', method: 'totp', code: '123456' }],
      ['/api/v1/login/second-factor', { ticket: 'tk-1', method: 'totp', code: '654321' }],
    ]);
  });

  it('takes a recovery code instead, and goes back to the password when the ticket expired', async () => {
    answer(
      jsonResponse(ok({ second_factor: { ticket: 'tk-2', methods: ['totp', 'recovery'] } })),
      jsonResponse({ code: 4015, msg: 'expired', request_id: 'r' }, 400),
    );
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    const user = await fillAndSubmit('olivia', 'secret-1');
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText(/^Recovery code/), 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This sign-in has expired, please sign in again.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
    expect(signInCalls()[1]).toEqual([
      '/api/v1/login/second-factor',
      { ticket: 'tk-2', method: 'recovery', code: 'abcde-fghij' },
    ]);
  });

  it('enrols a user the policy covers: QR code and key, a first code, the recovery codes, then the console', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
    answer(
      jsonResponse(ok({ enroll: { ticket: 'tk-3' } })),
      jsonResponse(
        ok({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauth_url: 'otpauth://totp/Patrol:olivia?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        }),
      ),
      jsonResponse(ok({ recovery_codes: codes, jwt: 'jwt-4', name: 'Olivia', s: 'super', expires_at: 0 })),
    );
    const { router } = renderRoutes(buildRouteObjects(), '/auth/login?redirect=%2Fhelp', null);
    const user = await fillAndSubmit('olivia', 'secret-1');
    expect(await screen.findByRole('img', { name: 'QR code for the authenticator app' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png;base64,/),
    );
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await user.type(screen.getByLabelText(/^Code from the authenticator app/), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    for (const c of codes) expect(await screen.findByText(c)).toBeInTheDocument();
    // Nothing is stored before the user has seen the codes.
    expect(getAuth()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue to the console' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/help'));
    expect(getAuth()).toEqual({ jwt: 'jwt-4', name: 'Olivia', s: 'super' });
    expect(signInCalls().slice(1)).toEqual([
      ['/api/v1/me/totp', { ticket: 'tk-3' }],
      ['/api/v1/me/totp/confirm', { code: '123456', ticket: 'tk-3' }],
    ]);
  });
});
