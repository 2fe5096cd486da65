// Client-side rules of the New Site and New Account forms. They run the shared zod schemas (built
// from shared/validators), so the messages are the server's own, and errors are keyed by path
// ('name', 'accounts.0.user') exactly like the `extra` of a 400 answer, which lands on the same fields.
import { AddAccountsBody, NewSiteBody } from '@shared/schemas/sites';
import { checkWith } from '@/components/dialog/checkWith';
import type { FormErrors } from '@/components/dialog/useFormDialog';

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

/** Messages by path ('name', 'accounts.0.user'), like the `extra` of a 400 answer. */
export type SiteFormErrors = FormErrors<NewSiteForm>;

let nextKey = 1;
export const emptyAccountRow = (): AccountRow => ({ key: nextKey++, user: '', pwd: '' });
export const emptyNewSite = (): NewSiteForm => ({ name: '', url: '', accounts: [emptyAccountRow()] });

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/** Whether the address as typed names its scheme (else the input shows the 'HTTPS://' prefix). */
export const hasScheme = (typed: string) => HAS_SCHEME.test(typed.trim());

/** The input shows a fixed 'HTTPS://' prefix: an address typed without a scheme gets https://. */
export function siteUrl(typed: string): string {
  const value = typed.trim();
  if (!value) return '';
  return hasScheme(value) ? value : `https://${value}`;
}

const toAccounts = (rows: readonly AccountRow[]) => rows.map(({ user, pwd }) => ({ user, pwd }));

/** The accounts rows alone: run before another row is added, and by the New Account tab. */
export const checkAccounts = (rows: readonly AccountRow[]) =>
  checkWith<Pick<NewSiteForm, 'accounts'>, typeof AddAccountsBody>(AddAccountsBody, { accounts: toAccounts(rows) });

export const checkNewSite = (form: NewSiteForm) =>
  checkWith<NewSiteForm, typeof NewSiteBody>(NewSiteBody, {
    name: form.name,
    url: siteUrl(form.url),
    accounts: toAccounts(form.accounts),
  });
