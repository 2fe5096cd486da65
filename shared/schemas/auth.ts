import { z } from 'zod';
import type { UserRole } from '../enums.js';
import { Bounds, password } from './common.js';
import { ValidatorMessages } from '../validators.js';

export type UserRoleValue = (typeof UserRole.values)[keyof typeof UserRole.values];

export const LoginBody = z.object({
  username: z.string().trim().min(1, 'Please input username').max(100, 'max length is 100'),
  // Trimmed like every password the server stores (spec section 5), so ' secret1 ' still logs in.
  password: z
    .string()
    .trim()
    .min(1, 'Please input password')
    .max(Bounds.secret, ValidatorMessages.maxLength(Bounds.secret)),
  /**
   * Only needed after repeated failures (the login answers code CaptchaRequired first).
   * `{id, answer}`, or the string `${id}:${answer}`: the id comes from GET /captcha,
   * the answer is what the user typed.
   */
  captcha: z
    .union([
      z.string().max(Bounds.token, ValidatorMessages.maxLength(Bounds.token)),
      z.object({
        id: z.string().max(Bounds.token, ValidatorMessages.maxLength(Bounds.token)),
        answer: z.string().max(Bounds.token, ValidatorMessages.maxLength(Bounds.token)),
      }),
    ])
    .optional()
    .nullable(),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** The user's current password, asked again before a change only its owner should make (docs/sign-in.md). */
export const CURRENT_PASSWORD_REQUIRED = 'Please input current password!';
export const CurrentPassword = password(CURRENT_PASSWORD_REQUIRED);
/** A factor set-up started from a session: `POST /me/passkeys/options`, and `POST /me/totp` without a ticket. */
export const CurrentPasswordBody = z.object({ password: CurrentPassword });
export type CurrentPasswordBody = z.infer<typeof CurrentPasswordBody>;

export const ChangePasswordBody = z.object({
  old_pwd: CurrentPassword,
  pwd: password('Please input new password!'),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const Profile = z.object({
  nickname: z.string(),
  username: z.string(),
  role: z.enum(['super', 'operator', 'viewer'] as const satisfies readonly UserRoleValue[]),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Profile = z.infer<typeof Profile>;

export interface LoginResult {
  jwt: string;
  name: string;
  /** Role, kept by the web as `s` in its stored auth (spec: jwt, name, s). */
  s: UserRoleValue;
  expires_at: number;
}

// Two-step sign-in (docs/sign-in.md): after the first factor (password, SSO, passkey) the answer is
// the token, or a ticket for the second step, or a ticket for enrolment when the policy
// (`auth.second_factor`) covers a user who has no second factor yet.

export const SecondFactorMethods = ['totp', 'passkey', 'recovery'] as const;
export type SecondFactorMethod = (typeof SecondFactorMethods)[number];
export const SecondFactorPolicies = ['off', 'super', 'all'] as const;
export type SecondFactorPolicy = (typeof SecondFactorPolicies)[number];

export const SecondFactorMessages = {
  ticket: 'Sign in again',
  code: 'Please input the code',
  totpCode: 'The code has 6 digits',
  method: 'Method must be totp or recovery',
} as const;

/** A sign-in ticket: opaque, from a `POST /login` answer. */
const Ticket = z
  .string({ error: SecondFactorMessages.ticket })
  .trim()
  .min(1, SecondFactorMessages.ticket)
  .max(Bounds.token);
/** A 6-digit code from an authenticator app (spaces as apps show them are dropped). */
export const TotpCode = z
  .string({ error: SecondFactorMessages.code })
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, SecondFactorMessages.code)
      .regex(/^\d{6}$/, SecondFactorMessages.totpCode),
  );
/** A TOTP code or a recovery code (checked by the method). */
const AnyCode = z
  .string({ error: SecondFactorMessages.code })
  .trim()
  .min(1, SecondFactorMessages.code)
  .max(Bounds.token, ValidatorMessages.maxLength(Bounds.token));

export const SecondFactorBody = z.object({
  ticket: Ticket,
  method: z.enum(['totp', 'recovery'], { error: SecondFactorMessages.method }),
  code: AnyCode,
});
export type SecondFactorBody = z.infer<typeof SecondFactorBody>;

/**
 * `POST /me/totp`: the ticket of an enrol answer (it came from the password step), or a session and
 * the current password (a session alone may be someone else's at the owner's desk). Optional here:
 * without a session the answer is the 401, not a missing field; the route asks for it after that.
 */
export const TotpStartBody = z.object({ ticket: Ticket.optional(), password: CurrentPassword.optional() });
export type TotpStartBody = z.infer<typeof TotpStartBody>;
export const TotpConfirmBody = z.object({ code: TotpCode, ticket: Ticket.optional() });
export type TotpConfirmBody = z.infer<typeof TotpConfirmBody>;
/** `DELETE /me/totp` and `POST /me/recovery-codes`: a current code proves the app is at hand. */
export const TotpCodeBody = z.object({ code: TotpCode });
export type TotpCodeBody = z.infer<typeof TotpCodeBody>;

/** What `POST /login` (and every first factor) answers. */
export type LoginAnswer =
  | LoginResult
  | { second_factor: { ticket: string; methods: SecondFactorMethod[] } }
  | { enroll: { ticket: string } };

export interface TotpEnrolment {
  /** Base32, for typing into the app. */
  secret: string;
  /** `otpauth://totp/...`, what the QR code holds. */
  otpauth_url: string;
}

/** `POST /me/totp/confirm`: the recovery codes, shown once; with a ticket also the token. */
export type TotpConfirmed = { recovery_codes: string[] } & Partial<LoginResult>;

export interface PasskeySummary {
  id: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface Factors {
  totp: boolean;
  passkeys: PasskeySummary[];
  recovery_codes_left: number;
}

export interface Captcha {
  id: string;
  /** data: URL of an SVG image */
  image: string;
}
