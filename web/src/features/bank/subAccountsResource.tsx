import { Bank, SubAccountStatus } from '@shared/enums';
import { type SubAccount, subAccountListFields } from '@shared/schemas/bank';
import type { QueryClient } from '@tanstack/react-query';
import { col, defineResource, type Resource } from '@/components/table';
import { SubAccountStatusBadge } from './BankBadges';
import { BANK_SUB_ACCOUNTS, refreshBankLists } from './bankApi';
import { BatchSwitchMenu } from './BatchSwitchMenu';
import { formatAmount } from './format';
import { SubAccountSwitchButton } from './SubAccountSwitchButton';

/**
 * The Bank Sub Account table (spec section 2): multi-select with the batch menu (enable, disable),
 * and per row the Enable/Disable of section 4 and a link to its account.
 */
export function subAccountsResource(client: QueryClient, openAccount: (sub: SubAccount) => void): Resource<SubAccount> {
  const changed = () => refreshBankLists(client);
  return defineResource<SubAccount>({
    name: BANK_SUB_ACCOUNTS,
    endpoint: '/bank/sub-accounts',
    listFields: subAccountListFields,
    title: 'Bank Sub Account',
    rowId: (s) => s.id,
    selectable: true,
    defaultSort: { field: 'created_at', order: 'desc' },
    failureTip: 'Fetch sub accounts failed.',
    columns: [
      col.number('id', 'ID'),
      col.enum('bank_name', 'Bank', Bank, { filter: true, sortable: true }),
      col.number('account_id', 'Account ID', { filter: true, copyable: true }),
      col.text('account.user', 'User'),
      col.text('no', 'Account No', { searchable: true, filter: true, copyable: true }),
      col.number('available_balance', 'Available Balance', {
        sortable: true,
        filter: true,
        render: (s) => formatAmount(s.available_balance),
      }),
      col.enum('status', 'Status', SubAccountStatus, {
        filter: true,
        sortable: true,
        render: (s) => <SubAccountStatusBadge status={s.status} />,
      }),
      col.boolean('processing', 'Processing', { filter: true, hidden: true }),
      col.datetime('last_refresh', 'Last Refresh', { sortable: true, filter: 'range' }),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
    actions: [{ label: 'Batch', write: true, render: (ctx) => <BatchSwitchMenu ctx={ctx} onDone={changed} /> }],
    rowActions: [
      {
        label: 'Switch',
        write: true,
        render: (s, ctx) => <SubAccountSwitchButton sub={s} onDone={() => Promise.all([ctx.refetch(), changed()])} />,
      },
      { label: 'Account', onClick: openAccount },
    ],
  });
}
