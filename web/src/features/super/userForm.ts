// Rules of the New User and Reset password forms: the server's own schemas (shared/schemas/users),
// so both sides trim, bound and word the messages the same way.
import type { UserRoleValue } from '@shared/schemas/auth';
import { NewUserBody, SetPasswordBody, UpdateUserBody } from '@shared/schemas/users';
import { ValidatorMessages } from '@shared/validators';
import { checkWith } from '@/components/dialog/checkWith';

export interface NewUserForm {
  username: string;
  nickname: string;
  password: string;
  role: UserRoleValue;
}

export const emptyNewUser: NewUserForm = { username: '', nickname: '', password: '', role: 'operator' };

/** The body to send, or the first message per field (English keys). */
export const checkNewUser = (form: NewUserForm) =>
  checkWith<NewUserForm, typeof NewUserBody>(NewUserBody, { ...form, nickname: form.nickname.trim() || undefined });

/** The trimmed new password, or the message to show. */
export function checkNewPassword(pwd: string): { pwd: string; error?: never } | { error: string } {
  const parsed = SetPasswordBody.safeParse({ pwd });
  return parsed.success
    ? { pwd: parsed.data.pwd }
    : { error: parsed.error.issues[0]?.message ?? ValidatorMessages.required };
}

export interface EditUserForm {
  nickname: string;
  role: UserRoleValue;
  enabled: boolean;
}
export type EditUserErrors = Partial<Record<keyof EditUserForm, string>>;

/**
 * The fields that changed against `user`, checked by the server's schema; `body` is undefined
 * when nothing changed (the dialog just closes).
 */
export function checkUserEdit(
  user: EditUserForm,
  form: EditUserForm,
): { body: UpdateUserBody | undefined; errors?: never } | { errors: EditUserErrors } {
  const changed: Partial<EditUserForm> = {};
  if (form.nickname.trim() !== user.nickname) changed.nickname = form.nickname;
  if (form.role !== user.role) changed.role = form.role;
  if (form.enabled !== user.enabled) changed.enabled = form.enabled;
  if (Object.keys(changed).length === 0) return { body: undefined };
  const parsed = UpdateUserBody.safeParse(changed);
  if (parsed.success) return { body: parsed.data };
  const errors: EditUserErrors = {};
  for (const issue of parsed.error.issues)
    errors[(issue.path[0] as keyof EditUserForm) ?? 'nickname'] ??= issue.message;
  return { errors };
}
