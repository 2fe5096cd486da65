// Rules of the change-password form (spec section 5); the schemas come from shared/ so the
// server checks the same lengths and messages.
import { password } from '@shared/schemas/common';

export interface PasswordForm {
  old: string;
  pwd: string;
  repeat: string;
}
export type PasswordErrors = Partial<Record<keyof PasswordForm, string>>;

const rules = {
  old: password('Please input current password!'),
  pwd: password('Please input new password!'),
  repeat: password('Please repeat new password!'),
};

/** Messages per field (English keys); empty when the form can be sent. All values are trimmed. */
export function validatePasswordForm(form: PasswordForm): PasswordErrors {
  const errors: PasswordErrors = {};
  for (const key of Object.keys(rules) as (keyof PasswordForm)[]) {
    const result = rules[key].safeParse(form[key]);
    if (!result.success) errors[key] = result.error.issues[0]?.message;
  }
  if (!errors.repeat && form.repeat.trim() !== form.pwd.trim()) errors.repeat = 'Password not matched';
  return errors;
}
