// Renders screens the way the app does (Fluent theme, query client, toasts, router) for tests.
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { createQueryClient } from '@/api/queryClient';
import { clearAuth, type StoredAuth, setAuth } from '@/app/auth';
import { setNavigator } from '@/app/navigation';
import { ToastHost } from '@/app/toast';
import { TestFluentProvider } from './TestFluentProvider';

export const operator: StoredAuth = { jwt: 'token-operator', name: 'Olivia', s: 'operator' };
export const superUser: StoredAuth = { jwt: 'token-super', name: 'Sam', s: 'super' };

export function Providers({ children }: { children: ReactNode }) {
  return (
    <TestFluentProvider>
      <QueryClientProvider client={createQueryClient()}>
        {children}
        <ToastHost />
      </QueryClientProvider>
    </TestFluentProvider>
  );
}

/** The app's routes at `path`, signed in as `auth` (the test's operator when absent), or as a visitor with null. */
export function renderRoutes(routes: RouteObject[], path: string, auth?: StoredAuth | null) {
  if (auth) setAuth(auth);
  else if (auth === null) clearAuth();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  setNavigator((to, opts) => void router.navigate(to, opts));
  const view = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router };
}

/** A canned API answer for a stubbed fetch. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export const ok = <T,>(data: T) => ({ code: 1000, msg: 'SUCCESS', data });

/** A toast's text appears twice: in the toast and in Fluent's screen-reader announcement. */
export async function findToast(text: string | RegExp): Promise<HTMLElement> {
  const { screen } = await import('@testing-library/react');
  const all = await screen.findAllByText(text);
  return all[0] as HTMLElement;
}
