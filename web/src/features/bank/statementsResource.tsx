import { Badge } from '@fluentui/react-components';
import { Bank, NotifyStatus } from '@shared/enums';
import { type Statement, statementListFields } from '@shared/schemas/bank';
import { col, defineResource, type ResourceConfig } from '@/components/table';
import { t } from '@/i18n';
import { BANK_STATEMENTS } from './bankApi';
import { formatAmount, statementDate } from './format';

const direction = (s: Statement) => (s.inflow ? 'Inflow' : 'Outflow');

/**
 * The Bank Statement table (spec section 2), also shown under a sub-account on the account detail
 * (scoped by sub_account_id). KBZ gives the date only, so its rows show the date only.
 */
const statements: ResourceConfig<Statement> = {
  name: BANK_STATEMENTS,
  endpoint: '/bank/statements',
  listFields: statementListFields,
  title: 'Bank Statement',
  rowId: (s) => s.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch statements failed.',
  columns: [
    col.number('id', 'ID'),
    col.enum('bank_name', 'Bank', Bank, { filter: true, sortable: true }),
    col.number('account_id', 'Account ID', { filter: true, hidden: true }),
    col.number('sub_account_id', 'Sub Account ID', { filter: true, hidden: true }),
    col.text('sub_account.no', 'Sub Account', { copyable: true }),
    col.custom<Statement>('human_date', 'Date', { sortable: true, text: statementDate }),
    col.boolean('inflow', 'Direction', {
      filter: true,
      render: (s) => (
        <Badge appearance="tint" shape="rounded" color={s.inflow ? 'success' : 'danger'}>
          {t(direction(s))}
        </Badge>
      ),
    }),
    col.text('name', 'Name', { searchable: true, filter: true }),
    col.number('amount', 'Amount', {
      sortable: true,
      filter: true,
      render: (s) => `${s.inflow ? '+' : '-'}${formatAmount(s.amount)}`,
    }),
    col.text('remark', 'Remark'),
    col.enum('notify_status', 'Notify Status', NotifyStatus, { filter: true, sortable: true }),
    col.datetime('notified_at', 'Notified At', { sortable: true, filter: 'range' }),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
  ],
};

export const statementsResource = defineResource(statements);

/** A sub-account's own statements on the account detail (the screen scopes them by sub_account_id). */
export const subStatementsResource = defineResource<Statement>({
  ...statements,
  title: 'Bank Statements',
  columns: statements.columns.filter((c) => !['bank_name', 'sub_account.no'].includes(c.id)),
});
