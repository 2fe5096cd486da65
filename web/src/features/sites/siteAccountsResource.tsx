import { NewAccount, type SiteAccount, siteAccountListFields } from '@shared/schemas/sites';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from '@/app/toast';
import { col, defineResource, type Resource } from '@/components/table';
import { t } from '@/i18n';
import { SecretCell } from '@/components/secret';
import { revealAccountPassword, SITE_ACCOUNTS, sitesChanged, updateAccount } from './sitesApi';

function trimmed(field: 'user' | 'pwd', value: string, failureTip: string): string {
  const parsed = NewAccount.shape[field].safeParse(value);
  if (parsed.success) return parsed.data;
  toast.error(t(failureTip), t(parsed.error.issues[0]?.message ?? ''));
  throw parsed.error;
}

/** The Account table (spec section 2): every site account, with user, pwd and enable edited inline; pwd is masked. */
export function siteAccountsResource(client: QueryClient): Resource<SiteAccount> {
  return defineResource<SiteAccount>({
    name: SITE_ACCOUNTS,
    endpoint: '/sites/accounts',
    listFields: siteAccountListFields,
    title: 'Account',
    rowId: (a) => a.id,
    defaultSort: { field: 'created_at', order: 'desc' },
    columns: [
      col.number('id', 'ID'),
      col.text('site.name', 'Site'),
      col.text('user', 'User', {
        searchable: true,
        filter: true,
        edit: { save: (a, value) => updateAccount(a, { user: trimmed('user', value, 'Update User failed.') }) },
      }),
      // No value in the row: the cell reveals one password on demand, and exports leave the column out.
      col.custom<SiteAccount>('pwd', 'Pwd', {
        render: (a) => <SecretCell reveal={() => revealAccountPassword(a)} />,
        edit: { save: (a, value) => updateAccount(a, { pwd: trimmed('pwd', value, 'Update Pwd failed.') }) },
      }),
      col.boolean('enable', 'Enable', {
        filter: true,
        toggle: async (a, enable) => {
          await updateAccount(a, { enable });
          await sitesChanged(client); // the Sites table counts enabled accounts (Valid Accounts)
        },
      }),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
  });
}
