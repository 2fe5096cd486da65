// Rules of the New User and Reset password forms: the server's own schemas (shared/schemas/users),
// so both sides trim, bound and word the messages the same way.
import type { UserRoleValue } from '@shared/schemas/auth';
import { NewUserBody, SetPasswordBody } from '@shared/schemas/users';
import { ValidatorMessages } from '@shared/validators';

export interface NewUserForm {
  username: string;
  nickname: string;
  password: string;
  role: UserRoleValue;
}
export type NewUserErrors = Partial<Record<keyof NewUserForm, string>>;

export const emptyNewUser: NewUserForm = { username: '', nickname: '', password: '', role: 'operator' };

/** The body to send, or the first message per field (English keys). */
export function checkNewUser(form: NewUserForm): { body: NewUserBody; errors?: never } | { errors: NewUserErrors } {
  const parsed = NewUserBody.safeParse({ ...form, nickname: form.nickname.trim() || undefined });
  if (parsed.success) return { body: parsed.data };
  const errors: NewUserErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof NewUserForm;
    errors[key] ??= issue.message;
  }
  return { errors };
}

/** The trimmed new password, or the message to show. */
export function checkNewPassword(pwd: string): { pwd: string; error?: never } | { error: string } {
  const parsed = SetPasswordBody.safeParse({ pwd });
  return parsed.success
    ? { pwd: parsed.data.pwd }
    : { error: parsed.error.issues[0]?.message ?? ValidatorMessages.required };
}
