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

export const ChangePasswordBody = z.object({
  old_pwd: password('Please input current password!'),
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

export interface Captcha {
  id: string;
  /** data: URL of an SVG image */
  image: string;
}
