import { z } from 'zod';
import { UserRole } from '../enums.js';
import { field, keyOrderFields } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { password, requiredText } from './common.js';
import type { UserRoleValue } from './auth.js';

// Console users as the super area manages them (spec sections 2, 6, 7: /super/users).
// Payloads are not shown by the spec; these are ours.

export const UserMessages = {
  username: 'Please input username',
  usernameChars: 'Username may only contain letters, digits and . _ - @',
  nickname: 'Please input nickname',
  password: 'Please input password!',
  role: 'Role must be super or operator',
} as const;

const roleValues = Object.values(UserRole.values) as [UserRoleValue, ...UserRoleValue[]];

export const Username = requiredText(UserMessages.username)
  .min(3, 'min length is 3')
  .max(40, 'max length is 40')
  .regex(/^[A-Za-z0-9_.@-]+$/, UserMessages.usernameChars);

export const NewUserBody = z.object({
  username: Username,
  /** Shown in the header and as creator of records; defaults to the username. */
  nickname: z.string().trim().max(40, 'max length is 40').optional(),
  password: password(UserMessages.password),
  role: z.enum(roleValues, { error: UserMessages.role }).default('operator'),
});
export type NewUserBody = z.infer<typeof NewUserBody>;

/** PUT /super/users/{id}/pwd: a super user sets someone's password (their sessions end). */
export const SetPasswordBody = z.object({ pwd: password('Please input new password!') });
export type SetPasswordBody = z.infer<typeof SetPasswordBody>;

/** A user as the API shows it: never the password hash or the token version. */
export interface User {
  id: number;
  username: string;
  nickname: string;
  role: UserRoleValue;
  enabled: boolean;
  created_at: number;
  updated_at: number;
}

/** Listable fields of GET /super/users. */
export const userFields = {
  ...keyOrderFields,
  username: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  nickname: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  role: field.enum(UserRole, { sort: 'bounded', filter: 'key' }),
  enabled: field.boolean({ sort: 'bounded', filter: 'key' }),
  updated_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
} as const satisfies ListFields;
