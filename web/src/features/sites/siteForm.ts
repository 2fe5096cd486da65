// Client-side rules of the New Site and New Account forms. They run the shared zod schemas, so the
// messages are the server's own, and errors are keyed by path ('name', 'accounts.0.user') exactly
// like the `extra` of a 400 answer, which lands on the same fields.
import { AddAccountsBody, type NewAccount, NewSiteBody } from '@shared/schemas/sites';
import type { z } from 'zod';

export interface AccountRow {
  /** Stable React key: rows are removed from the middle. */
  key: number;
  user: string;
  pwd: string;
}

export interface NewSiteForm {
  name: string;
  /** As typed; the scheme is optional (see `siteUrl`). */
  url: string;
  accounts: AccountRow[];
}

/** Field path -> message. */
export type FormErrors = Record<string, string>;

let nextKey = 1;
export const emptyAccountRow = (): AccountRow => ({ key: nextKey++, user: '', pwd: '' });

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/** The input shows a fixed 'HTTPS://' prefix: an address typed without a scheme gets https://. */
export function siteUrl(typed: string): string {
  const value = typed.trim();
  if (!value) return '';
  return HAS_SCHEME.test(value) ? value : `https://${value}`;
}

function errorsOf(error: z.ZodError): FormErrors {
  const out: FormErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'body';
    out[key] ??= issue.message;
  }
  return out;
}

const toAccounts = (rows: readonly AccountRow[]) => rows.map(({ user, pwd }) => ({ user, pwd }));

/** The accounts rows alone: run before another row is added, and by the New Account tab. */
export function validateAccounts(
  rows: readonly AccountRow[],
): { ok: true; accounts: NewAccount[] } | { ok: false; errors: FormErrors } {
  const parsed = AddAccountsBody.safeParse({ accounts: toAccounts(rows) });
  return parsed.success ? { ok: true, accounts: parsed.data.accounts } : { ok: false, errors: errorsOf(parsed.error) };
}

export function validateNewSite(
  form: NewSiteForm,
): { ok: true; body: NewSiteBody } | { ok: false; errors: FormErrors } {
  const parsed = NewSiteBody.safeParse({
    name: form.name,
    url: siteUrl(form.url),
    accounts: toAccounts(form.accounts),
  });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: errorsOf(parsed.error) };
}

/** Drops the errors of one field (the user is correcting it) and re-keys rows after a removal. */
export function withoutError(errors: FormErrors, path: string): FormErrors {
  if (!(path in errors)) return errors;
  const { [path]: _, ...rest } = errors;
  return rest;
}

export function withoutRow(errors: FormErrors, prefix: string, index: number): FormErrors {
  const out: FormErrors = {};
  const re = new RegExp(`^${prefix}\\.(\\d+)\\.(.+)$`);
  for (const [key, message] of Object.entries(errors)) {
    const m = re.exec(key);
    if (!m) out[key] = message;
    else if (Number(m[1]) < index) out[key] = message;
    else if (Number(m[1]) > index) out[`${prefix}.${Number(m[1]) - 1}.${m[2]}`] = message;
  }
  return out;
}
