import { lazy, type ReactNode, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import NotFoundPage from '@/features/errors/NotFoundPage';
import { GuestOnly, RequireAuth } from './guards';
import { RouteScreen } from './RouteScreen';
import { type RouteDef, readyRoutes } from './routes';

// The login page needs none of the shell, so the shell is its own chunk.
const LazyAppShell = lazy(() => import('./shell/AppShell').then((m) => ({ default: m.AppShell })));

/**
 * Route objects for `createBrowserRouter` (the app) or `createMemoryRouter` (tests).
 * `shell` lets tests swap the shell for a bare outlet.
 */
export function buildRouteObjects(
  list: readonly RouteDef[] = readyRoutes,
  shell: ReactNode = (
    <Suspense fallback={null}>
      <LazyAppShell />
    </Suspense>
  ),
): RouteObject[] {
  const bare = list.filter((d) => d.layout === 'bare');
  const inShell = list.filter((d) => d.layout !== 'bare');
  return [
    ...bare.map((def) => ({
      path: def.path,
      element: def.public ? (
        <GuestOnly>
          <RouteScreen def={def} />
        </GuestOnly>
      ) : (
        <RequireAuth>
          <RouteScreen def={def} />
        </RequireAuth>
      ),
    })),
    {
      element: <RequireAuth>{shell}</RequireAuth>,
      children: [
        ...inShell.map((def) => ({ path: def.path, element: <RouteScreen def={def} /> })),
        // Unnamed routes lead to the 404 page (spec section 2).
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}
