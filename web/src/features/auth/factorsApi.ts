// The second factor's calls (docs/sign-in.md): the login's second step and enrolment, and the
// user's own factors on /setting/security.
import type {
  CurrentPasswordBody,
  Factors,
  LoginResult,
  SecondFactorBody,
  TotpConfirmed,
  TotpEnrolment,
} from '@shared/schemas/auth';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/** The login page shows the failures a user can act on itself (spec: the login call is silent). */
export const secondFactorSignIn = (data: SecondFactorBody) =>
  request<LoginResult>({ method: 'POST', url: '/login/second-factor', data, silent: true });

/**
 * A secret to enrol: with the enrolment ticket at sign-in (silent: the step shows the failure), or on
 * the security page with the session and the current password (its dialog marks a wrong password).
 */
export const startTotp = (data: { ticket: string } | CurrentPasswordBody) =>
  'ticket' in data
    ? request<TotpEnrolment>({ method: 'POST', url: '/me/totp', data, silent: true })
    : request<TotpEnrolment>({
        method: 'POST',
        url: '/me/totp',
        data,
        failureTip: 'Could not set up the authenticator app.',
      });

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
