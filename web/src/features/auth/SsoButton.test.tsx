import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuth } from '@/app/auth';
import { buildRouteObjects } from '@/app/router';
import { jsonResponse, ok, renderRoutes } from '@/test/renderApp';

vi.setConfig({ testTimeout: 30_000 });

const fetchMock = vi.fn<typeof fetch>();
let redeemAnswer: Response;
beforeEach(() => {
  redeemAnswer = jsonResponse({ code: 5000, msg: 'unexpected', request_id: 'r' }, 500);
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.endsWith('/api/v1/auth/sso')) return jsonResponse(ok({ enabled: true, display_name: 'Corp SSO' }));
    if (url.endsWith('/api/v1/login/sso')) return redeemAnswer;
    return jsonResponse(ok({ enabled: false }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});
const redeemCalls = () =>
  fetchMock.mock.calls
    .filter(([url]) => String(url).endsWith('/api/v1/login/sso'))
    .map(([, init]) => JSON.parse(String(init?.body)));

describe('single sign-on on the login page', () => {
  it('offers "Sign in with <name>" leading to the start of the sign-in', async () => {
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    const link = await screen.findByRole('link', { name: 'Sign in with Corp SSO' });
    expect(link).toHaveAttribute('href', '/api/v1/auth/oidc/start');
  });

  it('redeems the code the provider brought back once, signs in and leaves no code in the address', async () => {
    redeemAnswer = jsonResponse(ok({ jwt: 'jwt-sso', name: 'Olivia', s: 'viewer', expires_at: 0 }));
    const { router } = renderRoutes(buildRouteObjects(), '/auth/login?sso_code=abc123', null);
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/auth/login'));
    expect(getAuth()).toEqual({ jwt: 'jwt-sso', name: 'Olivia', s: 'viewer' });
    expect(redeemCalls()).toEqual([{ code: 'abc123' }]);
    expect(router.state.location.search).not.toContain('sso_code');
  });

  it('shows why the provider sign-in was refused', async () => {
    const { router } = renderRoutes(buildRouteObjects(), '/auth/login?sso_error=4022', null);
    expect(
      await screen.findByText(
        'Your account at the identity provider is not a Patrol user. Ask a super user to add you.',
      ),
    ).toBeInTheDocument();
    expect(router.state.location.search).not.toContain('sso_error');
    expect(getAuth()).toBeNull();
  });

  it('says a used or expired code has expired', async () => {
    redeemAnswer = jsonResponse({ code: 4023, msg: 'expired', request_id: 'r' }, 400);
    renderRoutes(buildRouteObjects(), '/auth/login?sso_code=used', null);
    expect(await screen.findByText('This single sign-on has expired, please sign in again.')).toBeInTheDocument();
  });
});
