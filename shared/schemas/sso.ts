import { z } from 'zod';
import { Bounds } from './common.js';

// Single sign-on with OpenID Connect (docs/sign-in.md). Its settings are the `sso` section of the
// system config (what operators may read: nothing secret); the client secret is kept apart,
// encrypted, and set through its own call (`PUT /super/sso/client-secret`).

/** The ID token claim that names the Patrol user. */
export const SsoUsernameClaims = ['preferred_username', 'email'] as const;
/** Which claim shows the provider's MFA, when it counts as Patrol's second factor; `off`: it never does. */
export const SsoMfaClaims = ['off', 'amr', 'acr'] as const;

export const SsoMessages = {
  displayName: 'Please input the name shown on the button',
  issuer: 'The issuer is an http(s) URL without user name, query or fragment',
  issuerNeeded: 'Please input the issuer URL',
  clientIdNeeded: 'Please input the client id',
  mfaValuesNeeded: 'List the amr or acr values that show MFA',
  value: 'Values are 1 to 100 characters without spaces',
  secret: 'The client secret is 1 to 512 characters',
} as const;

const issuerUrl = z
  .string({ error: SsoMessages.issuer })
  .trim()
  .max(Bounds.url)
  .refine((s) => {
    if (!s) return true;
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, SsoMessages.issuer)
  // Discovery appends /.well-known/...: a trailing slash would be kept in the issuer and not match it.
  .transform((s) => s.replace(/\/+$/, ''));

export const SsoConfig = z
  .object({
    enabled: z.boolean().default(false),
    /** "Sign in with <display_name>" on the login page. */
    display_name: z.string().trim().max(40).default('SSO'),
    issuer: issuerUrl.default(''),
    client_id: z.string().trim().max(Bounds.token).default(''),
    username_claim: z
      .enum(SsoUsernameClaims, { error: `One of ${SsoUsernameClaims.join(', ')}` })
      .default('preferred_username'),
    mfa_claim: z.enum(SsoMfaClaims, { error: `One of ${SsoMfaClaims.join(', ')}` }).default('off'),
    /** `amr` values (any one of them) or `acr` values that show the user passed the provider's MFA. */
    mfa_values: z
      .array(
        z
          .string()
          .trim()
          .regex(/^\S{1,100}$/, SsoMessages.value),
      )
      .max(20)
      .default([]),
  })
  .superRefine((sso, ctx) => {
    if (!sso.enabled) return;
    if (!sso.display_name) ctx.addIssue({ code: 'custom', path: ['display_name'], message: SsoMessages.displayName });
    if (!sso.issuer) ctx.addIssue({ code: 'custom', path: ['issuer'], message: SsoMessages.issuerNeeded });
    if (!sso.client_id) ctx.addIssue({ code: 'custom', path: ['client_id'], message: SsoMessages.clientIdNeeded });
    if (sso.mfa_claim !== 'off' && sso.mfa_values.length === 0)
      ctx.addIssue({ code: 'custom', path: ['mfa_values'], message: SsoMessages.mfaValuesNeeded });
  });
export type SsoConfig = z.infer<typeof SsoConfig>;

/** `GET /auth/sso`: what the login page needs (public). */
export interface SsoStatus {
  enabled: boolean;
  /** The button's "Sign in with <name>"; '' when off. */
  display_name: string;
}

/** `PUT /super/sso/client-secret`: '' clears it. */
export const SsoClientSecretBody = z.object({
  client_secret: z.string({ error: SsoMessages.secret }).trim().max(512, SsoMessages.secret),
});
export type SsoClientSecretBody = z.infer<typeof SsoClientSecretBody>;

/** `GET /super/sso/client-secret`: whether one is kept, and its masked hint; never the secret. */
export interface SsoClientSecretState {
  set: boolean;
  hint: string;
  updated_at: number | null;
}

/** `POST /login/sso`: the one-time code the callback put in the login page's address. */
export const SsoLoginBody = z.object({
  code: z.string({ error: 'Sign in again' }).trim().min(1, 'Sign in again').max(Bounds.token),
});
export type SsoLoginBody = z.infer<typeof SsoLoginBody>;

/** The login page's query parameters the callback sets: `sso_code` on success, `sso_error` (an error code) else. */
export const SSO_QUERY = { code: 'sso_code', error: 'sso_error' } as const;

/** The callback's path below /api/v1: the redirect URI to register at the provider is `${PUBLIC_URL}/api/v1` + this. */
export const SSO_CALLBACK_PATH = '/auth/oidc/callback';
