import { Bank, BankAccountStatus } from '@shared/enums';
import { type BankAccount, bankAccountListFields, UpdateBankAccountBody } from '@shared/schemas/bank';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Open16Regular } from '@fluentui/react-icons';
import { col, defineResource, type Resource } from '@/components/table';
import { SecretCell } from '@/components/secret';
import { BankAccountStatusBadge, STALE_HELP, StaleBadge } from './BankBadges';
import {
  BANK_ACCOUNTS,
  type BankAccountField,
  refreshBankLists,
  revealBankPassword,
  updateBankAccount,
} from './bankApi';
import { checkedValue } from './checkedValue';

type TextField = Extract<BankAccountField, 'user' | 'pwd' | 'remark' | 'mobile' | 'holder'>;

const failureTips: Record<TextField, string> = {
  user: 'Update User failed.',
  pwd: 'Update Pwd failed.',
  remark: 'Update Remark failed.',
  mobile: 'Update Mobile failed.',
  holder: 'Update Holder failed.',
};

/** Saves one inline edit: trimmed and checked with the shared rule, then sent alone with its own tips. */
const saveText = (field: TextField) => (a: BankAccount, value: string) =>
  updateBankAccount(a, field, checkedValue(UpdateBankAccountBody.shape[field].unwrap(), value, failureTips[field]));

/**
 * The Bank Account table (spec section 2): user, pwd, remark, mobile and holder edited inline; pwd
 * masked with the audited reveal; the status labels of its enum and the stale marker. `openDetail`
 * goes to the account's page, `newAccount` renders the New Bank Account action.
 */
export function bankAccountsResource(
  client: QueryClient,
  openDetail: (account: BankAccount) => void,
  newAccount: () => ReactNode,
): Resource<BankAccount> {
  const after = (save: (a: BankAccount, v: string) => Promise<unknown>) => async (a: BankAccount, v: string) => {
    await save(a, v);
    await refreshBankLists(client);
  };
  return defineResource<BankAccount>({
    name: BANK_ACCOUNTS,
    endpoint: '/bank/bank-accounts',
    listFields: bankAccountListFields,
    title: 'Bank Account',
    rowId: (a) => a.id,
    defaultSort: { field: 'created_at', order: 'desc' },
    failureTip: 'Fetch bank accounts failed.',
    columns: [
      col.number('id', 'ID'),
      col.enum('bank_name', 'Bank', Bank, { filter: true, sortable: true }),
      col.text('user', 'User', { searchable: true, filter: true, edit: { save: after(saveText('user')) } }),
      // The row holds a mask only: the cell reveals the password through the audited call, and exports leave it out.
      {
        ...col.custom<BankAccount>('pwd', 'Pwd', {
          render: (a) => <SecretCell reveal={() => revealBankPassword(a)} />,
          edit: { save: saveText('pwd') },
        }),
        // The edit popup starts empty, never with the mask, which would otherwise be saved as the password.
        value: () => '',
      },
      col.enum('status', 'Status', BankAccountStatus, {
        filter: true,
        sortable: true,
        render: (a) => <BankAccountStatusBadge status={a.status} />,
      }),
      col.boolean('stale', 'Stale', { filter: true, help: STALE_HELP, render: (a) => <StaleBadge stale={a.stale} /> }),
      col.text('holder', 'Holder', { searchable: true, filter: true, edit: { save: after(saveText('holder')) } }),
      col.text('mobile', 'Mobile', { searchable: true, filter: true, edit: { save: after(saveText('mobile')) } }),
      col.text('remark', 'Remark', { searchable: true, filter: true, edit: { save: after(saveText('remark')) } }),
      col.number('monitor_interval', 'Monitor Interval', { sortable: true, filter: true }),
      col.datetime('last_refresh', 'Last Refresh', { sortable: true, filter: 'range' }),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
    actions: [{ label: 'NewBankAccount', write: true, render: newAccount }],
    rowActions: [{ label: 'Detail', icon: <Open16Regular />, onClick: openDetail }],
  });
}
