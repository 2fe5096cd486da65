import { screen } from '@testing-library/react';
import { Outlet } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { operator, renderRoutes, superUser } from '@/test/renderApp';
import { buildRouteObjects } from './router';
import { type RouteDef, readyRoutes, routeByName, routes } from './routes';

// Fluent inputs re-render on every keystroke; jsdom makes that slow on a 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const OperationStub = () => <p>Operation screen</p>;
const UsersStub = () => <p>Users screen</p>;

/** The real route table with two screens replaced by stubs, so the tests do not depend on their content. */
const stubbed = new Set(['operationDetail', 'superUsers']);
const withStubs: RouteDef[] = [
  ...readyRoutes.filter((r) => !stubbed.has(r.name)),
  { ...routeByName('operationDetail'), ready: true, screen: OperationStub },
  { ...routeByName('superUsers'), ready: true, screen: UsersStub },
];
const bareShell = <Outlet />;

describe('routes', () => {
  it('declares every route of the spec once', () => {
    const paths = routes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/help', '/operations/:operationID', '/bank/accounts/:accountID', '/auth/login']),
    );
    expect(paths.filter((p) => p.startsWith('/logs/'))).toHaveLength(8);
    expect(routes.filter((r) => r.ready).every((r) => r.screen)).toBe(true);
  });

  it('sends a visitor without a login to login, remembering the page and its query', async () => {
    const { router } = renderRoutes(buildRouteObjects(readyRoutes, bareShell), '/help?tab=bank', null);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/help?tab=bank')}`);
  });

  it('sends a logged-in user who opens login to the redirect path', async () => {
    const { router } = renderRoutes(
      buildRouteObjects(readyRoutes, bareShell),
      '/auth/login?redirect=%2Fhelp',
      operator,
    );
    expect(await screen.findByRole('heading', { name: 'Help' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/help');
  });

  it('sends a logged-in user who opens login without a redirect home', async () => {
    const { router } = renderRoutes(buildRouteObjects(readyRoutes, bareShell), '/auth/login', operator);
    expect(await screen.findByRole('heading', { name: /Welcome to Patrol/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('ignores a redirect to another site after login', async () => {
    const { router } = renderRoutes(
      buildRouteObjects(readyRoutes, bareShell),
      '/auth/login?redirect=//evil.example',
      operator,
    );
    await screen.findByRole('heading', { name: /Welcome to Patrol/ });
    expect(router.state.location.pathname).toBe('/');
  });

  it('opens a page with a numeric id', async () => {
    renderRoutes(buildRouteObjects(withStubs, bareShell), '/operations/12', operator);
    expect(await screen.findByText('Operation screen')).toBeInTheDocument();
  });

  it.each(['/operations/abc', '/operations/0', '/operations/1e3', '/operations/-4'])(
    'shows the 404 page for the non-numeric id in %s',
    async (path) => {
      renderRoutes(buildRouteObjects(withStubs, bareShell), path, operator);
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
      expect(screen.queryByText('Operation screen')).not.toBeInTheDocument();
    },
  );

  it('shows the 404 page for unknown paths and for screens that are not built yet', async () => {
    renderRoutes(buildRouteObjects(readyRoutes, bareShell), '/no/such/page', operator);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('keeps operators out of the super area', async () => {
    const { router } = renderRoutes(buildRouteObjects(withStubs, bareShell), '/super/users/users', operator);
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/403');
  });

  it('lets super users into the super area', async () => {
    renderRoutes(buildRouteObjects(withStubs, bareShell), '/super/users/users', superUser);
    expect(await screen.findByText('Users screen')).toBeInTheDocument();
  });
});
