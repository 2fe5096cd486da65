import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuth } from '@/app/auth';
import { buildRouteObjects } from '@/app/router';
import { jsonResponse, ok, renderRoutes } from '@/test/renderApp';

// Fluent inputs re-render on every keystroke; jsdom makes that slow on a 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

async function fillAndSubmit(username: string, password: string) {
  const user = userEvent.setup({ delay: null });
  await user.type(await screen.findByLabelText(/^Username/), username);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('Login', () => {
  it('stores the login and returns to the page the user wanted', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(ok({ jwt: 'jwt-1', name: 'Olivia', s: 'operator', expires_at: 0 })));
    const { router } = renderRoutes(buildRouteObjects(), '/auth/login?redirect=%2Fhelp', null);
    await fillAndSubmit(' olivia ', 'secret-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/help'));
    expect(getAuth()).toEqual({ jwt: 'jwt-1', name: 'Olivia', s: 'operator' });
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      username: 'olivia',
      password: 'secret-1',
    });
  });

  it('says so clearly when the credentials are wrong', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 4011, msg: 'Bad credentials', request_id: 'r' }, 401));
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    await fillAndSubmit('olivia', 'nope');
    expect(await screen.findByText('Wrong username or password.')).toBeInTheDocument();
    expect(getAuth()).toBeNull();
  });

  it('asks for a captcha when the server requires one and sends its answer', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ code: 4012, msg: 'Captcha required', request_id: 'r' }, 400))
      .mockResolvedValueOnce(jsonResponse(ok({ id: 'cap-1', image: 'data:image/svg+xml;base64,PHN2Zy8+' })))
      .mockResolvedValueOnce(jsonResponse(ok({ jwt: 'jwt-2', name: 'Olivia', s: 'super', expires_at: 0 })));
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    const user = await fillAndSubmit('olivia', 'secret-1');
    expect(await screen.findByRole('img', { name: 'Captcha' })).toHaveAttribute(
      'src',
      'data:image/svg+xml;base64,PHN2Zy8+',
    );
    await user.type(screen.getByRole('textbox', { name: /^Captcha/ }), 'x7k2');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(getAuth()?.s).toBe('super'));
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/v1/captcha');
    expect(JSON.parse(String(fetchMock.mock.calls[2]?.[1]?.body))).toMatchObject({
      captcha: { id: 'cap-1', answer: 'x7k2' },
    });
  });

  it('hides other login errors', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 5000, msg: 'Internal boom', request_id: 'r' }, 500));
    renderRoutes(buildRouteObjects(), '/auth/login', null);
    await fillAndSubmit('olivia', 'secret-1');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryAllByText('Internal boom')).toHaveLength(0);
  });
});
