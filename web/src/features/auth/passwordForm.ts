// Rules of the change-password form (spec section 5); the schemas come from shared/ so the
// server checks the same lengths and messages.
import { password } from '@shared/schemas/common';
import { firstError, sameAs } from '@shared/validators';

export interface PasswordForm {
  old: string;
  pwd: string;
  repeat: string;
}
export type PasswordErrors = Partial<Record<keyof PasswordForm, string>>;

const rules = (form: PasswordForm) => ({
  old: password('Please input current password!'),
  pwd: password('Please input new password!'),
  repeat: sameAs(password('Please repeat new password!'), form.pwd, 'Password not matched'),
});

/** Messages per field (English keys); empty when the form can be sent. All values are trimmed. */
export function validatePasswordForm(form: PasswordForm): PasswordErrors {
  const errors: PasswordErrors = {};
  const checks = rules(form);
  for (const key of Object.keys(checks) as (keyof PasswordForm)[]) {
    const error = firstError(checks[key], form[key]);
    if (error) errors[key] = error;
  }
  return errors;
}
