import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { useAuth } from './auth';
import { LOGIN_PATH, loginPathFor } from './navigation';

/** Without a stored token, every page but login goes to login, remembering where the user was going. */
export function RequireAuth({ children }: { children: ReactNode }): ReactNode {
  const auth = useAuth();
  const location = useLocation();
  if (!auth) return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  return children;
}

/** Only same-site paths are followed, so a crafted link cannot send a user elsewhere after login. */
export function safeRedirect(value: string | null): string {
  return value?.startsWith('/') && !value.startsWith('//') && !value.startsWith(LOGIN_PATH) ? value : '/';
}

/** Opening login while logged in goes to the redirect path, or home. */
export function GuestOnly({ children }: { children: ReactNode }): ReactNode {
  const auth = useAuth();
  const [search] = useSearchParams();
  if (auth) return <Navigate to={safeRedirect(search.get('redirect'))} replace />;
  return children;
}
