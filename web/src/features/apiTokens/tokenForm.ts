// The New token form: a name, a scope and a lifetime in days (the body's `expires_at` is computed
// when it is sent), checked by the server's own schema.
import { type ApiTokenScopeValue, NewApiTokenBody } from '@shared/schemas/apiTokens';
import { checkWith } from '@/components/dialog/checkWith';
import type { FormCheck } from '@/components/dialog/useFormDialog';

/** The lifetimes offered, in days; a year is the most the server takes. */
export const TOKEN_LIFETIMES = [30, 90, 180, 365] as const;
const DAY_MS = 86_400_000;

export interface NewTokenForm {
  name: string;
  scope: ApiTokenScopeValue;
  days: (typeof TOKEN_LIFETIMES)[number];
}

export const emptyTokenForm = (): NewTokenForm => ({ name: '', scope: 'read', days: 90 });

/** The body to send, or the first message per field; the expiry's (also the server's) shows on `days`. */
export function checkTokenForm(form: NewTokenForm, now = Date.now()): FormCheck<NewTokenForm, NewApiTokenBody> {
  const checked = checkWith<NewTokenForm, typeof NewApiTokenBody>(NewApiTokenBody, {
    name: form.name,
    scope: form.scope,
    expires_at: now + form.days * DAY_MS,
  });
  if (!checked.errors) return checked;
  const { expires_at, ...rest } = checked.errors as Record<string, string>;
  return { errors: { ...rest, ...(expires_at ? { days: expires_at } : {}) } };
}
