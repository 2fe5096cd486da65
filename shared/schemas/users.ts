import { z } from 'zod';
import { UserRole } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { lengthBetween, maxLength } from '../validators.js';
import { password } from './common.js';
import type { UserRoleValue } from './auth.js';

// Console users as the super area manages them (spec sections 2, 6, 7: /super/users).
// Payloads are not shown by the spec; these are ours.

export const UserMessages = {
  username: 'Please input username',
  usernameChars: 'Username may only contain letters, digits and . _ - @',
  nickname: 'Please input nickname',
  password: 'Please input password!',
  role: 'Role must be super, operator or viewer',
  enabled: 'Enabled must be true or false',
  nothingToChange: 'Give at least one of nickname, role and enabled',
} as const;

const roleValues = Object.values(UserRole.values) as [UserRoleValue, ...UserRoleValue[]];

export const Username = lengthBetween(3, 40, UserMessages.username).regex(
  /^[A-Za-z0-9_.@-]+$/,
  UserMessages.usernameChars,
);

export const NewUserBody = z.object({
  username: Username,
  /** Shown in the header and as creator of records; defaults to the username. */
  nickname: maxLength(40).optional(),
  password: password(UserMessages.password),
  role: z.enum(roleValues, { error: UserMessages.role }).default('operator'),
});
export type NewUserBody = z.infer<typeof NewUserBody>;

/**
 * PUT /super/users/{id}: a super user edits someone's nickname, role or enabled flag (any of them).
 * Disabling ends the user's sessions at once; the server refuses to disable or demote oneself or
 * the last enabled super user.
 */
export const UpdateUserBody = z
  .object({
    nickname: lengthBetween(1, 40, UserMessages.nickname).optional(),
    role: z.enum(roleValues, { error: UserMessages.role }).optional(),
    enabled: z.boolean({ error: UserMessages.enabled }).optional(),
  })
  .refine((b) => b.nickname !== undefined || b.role !== undefined || b.enabled !== undefined, {
    message: UserMessages.nothingToChange,
  });
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** PUT /super/users/{id}/pwd: a super user sets someone's password (their sessions end). */
export const SetPasswordBody = z.object({ pwd: password('Please input new password!') });
export type SetPasswordBody = z.infer<typeof SetPasswordBody>;

/** A user's row (GET /super/users lists it): what it is and what a list may do with each field. */
export const userFields = {
  ...keyOrderFields,
  username: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  nickname: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  role: field.enum(UserRole, { sort: 'bounded', filter: 'key' }),
  enabled: field.boolean({ sort: 'bounded', filter: 'key' }),
  updated_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
} as const satisfies ListFields;

/** A user as the API shows it: never the password hash or the token version (those are stored only). */
export type User = RowOf<typeof userFields>;
