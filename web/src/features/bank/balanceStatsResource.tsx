import { Badge, Tooltip } from '@fluentui/react-components';
import { Bank, NotifyStatus } from '@shared/enums';
import { type BalanceStat, balanceStatListFields } from '@shared/schemas/bank';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';
import { BANK_BALANCE_STATS } from './bankApi';
import { formatAmount } from './format';

const DIFFERENCE_HELP =
  'Balance change minus the signed sum of the statements recorded between the two balances; 0 when they agree.';

/**
 * The Bank Balance Stat table (spec section 2): one row per balance change, with the reconciliation
 * of issue 13: a change the recorded statements do not add up to is flagged with its difference.
 */
export const balanceStatsResource = defineResource<BalanceStat>({
  name: BANK_BALANCE_STATS,
  endpoint: '/bank/balance-stat',
  listFields: balanceStatListFields,
  title: 'Bank Balance Stat',
  rowId: (b) => b.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch balance stats failed.',
  columns: [
    col.number('id', 'ID'),
    col.enum('bank_name', 'Bank', Bank, { filter: true, sortable: true }),
    col.number('account_id', 'Account ID', { filter: true }),
    col.number('sub_account_id', 'Sub Account ID', { filter: true, hidden: true }),
    col.text('sub_account.no', 'Sub Account', { copyable: true }),
    col.number('pre_bal', 'Pre Balance', { sortable: true, filter: true, render: (b) => formatAmount(b.pre_bal) }),
    col.number('cur_bal', 'Current Balance', { sortable: true, filter: true, render: (b) => formatAmount(b.cur_bal) }),
    col.number('amount', 'Amount', { sortable: true, filter: true, render: (b) => formatAmount(b.amount) }),
    col.boolean('reconciled', 'Reconciled', {
      filter: true,
      render: (b) => (
        <Tooltip
          content={`${t('Statements')}: ${b.statements_count} · ${formatAmount(b.statements_sum)}`}
          relationship="description"
        >
          <Badge appearance="tint" shape="rounded" color={b.reconciled ? 'success' : 'danger'}>
            {t(b.reconciled ? 'Yes' : 'No')}
          </Badge>
        </Tooltip>
      ),
    }),
    col.number('difference', 'Difference', {
      sortable: true,
      filter: true,
      help: DIFFERENCE_HELP,
      render: (b) =>
        b.difference ? (
          <Badge appearance="filled" shape="rounded" color="danger">
            {formatAmount(b.difference)}
          </Badge>
        ) : (
          formatAmount(b.difference)
        ),
    }),
    col.enum('notify_status', 'Notify Status', NotifyStatus, { filter: true, sortable: true }),
    col.datetime('notified_at', 'Notified At', { sortable: true, filter: 'range' }),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
  ],
});
