// The second factor's calls (docs/sign-in.md): the login's second step and enrolment, and the
// user's own factors on /setting/security.
import type { Factors, LoginResult, SecondFactorBody, TotpConfirmed, TotpEnrolment } from '@shared/schemas/auth';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/** The login page shows the failures a user can act on itself (spec: the login call is silent). */
export const secondFactorSignIn = (data: SecondFactorBody) =>
  request<LoginResult>({ method: 'POST', url: '/login/second-factor', data, silent: true });

/** A secret to enrol: with the enrolment ticket at sign-in, or the session on the security page. */
export const startTotp = (ticket?: string) =>
  request<TotpEnrolment>({ method: 'POST', url: '/me/totp', data: ticket ? { ticket } : {}, silent: true });

export const confirmTotp = (code: string, ticket?: string) =>
  request<TotpConfirmed>({
    method: 'POST',
    url: '/me/totp/confirm',
    data: ticket ? { code, ticket } : { code },
    silent: true,
  });

export const removeTotp = (code: string) =>
  request<unknown>({ method: 'DELETE', url: '/me/totp', data: { code }, silent: true });

export const regenerateRecoveryCodes = (code: string) =>
  request<{ recovery_codes: string[] }>({ method: 'POST', url: '/me/recovery-codes', data: { code }, silent: true });

export const factorsQuery = {
  queryKey: queryKeys.single('factors'),
  queryFn: () => request<Factors>({ url: '/me/factors' }),
};
