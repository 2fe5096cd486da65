import type { LoginAnswer } from '@shared/schemas/auth';
import type { SsoStatus } from '@shared/schemas/sso';
import { queryKeys } from '@/api/queryKeys';
import { API_BASE, request } from '@/api/request';

/** GET /auth/sso (public): whether the login page offers single sign-on, and its name. */
export const ssoStatusQuery = {
  queryKey: queryKeys.single('ssoStatus'),
  queryFn: () => request<SsoStatus>({ url: '/auth/sso', silent: true }),
  staleTime: 60_000,
};

/** Where the browser goes to sign in at the provider: the server redirects it there. */
export const SSO_START_URL = `${API_BASE}/auth/oidc/start`;

/** The callback's one-time code for what a first factor answers (the token, or the second step). */
export const redeemSsoCode = (code: string) =>
  request<LoginAnswer>({ method: 'POST', url: '/login/sso', data: { code }, silent: true });
