import { OperationName, RunStatus } from '@shared/enums';
import { type Operation, operationListFields } from '@shared/schemas/checks';
import { col, defineResource } from '@/components/table';
import { pathOf } from '@/app/paths';
import { RouteLink } from '@/components/display/RouteLink';
import { RunStatusBadge } from '@/components/display/RunStatusBadge';
import { durationColumn } from '@/features/checks/runColumns';
import { countsText, operationCounts, TaskCountsCell } from '@/features/checks/TaskCountsCell';
import { useT } from '@/i18n';
import { OpenDetailButton } from './OpenDetailButton';
import { operationSiteText } from './operationSite';

function SiteCell({ op }: { op: Operation }) {
  const t = useT();
  const text = operationSiteText(op);
  return <span>{op.name === OperationName.values.SingleSite ? text : t(text)}</span>;
}

export const operationsResource = defineResource<Operation>({
  name: 'operations',
  endpoint: '/operations',
  listFields: operationListFields,
  title: 'Operations',
  rowId: (op) => op.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch operations failed.',
  columns: [
    col.number('id', 'ID', {
      filter: true,
      sortable: true,
      // The Detail button sits at the far right; the id is a shorter way to the same page.
      render: (op) => <RouteLink to={pathOf('operationDetail', { operationID: op.id })}>{op.id}</RouteLink>,
    }),
    col.enum('name', 'Name', OperationName, { filter: true }),
    col.custom('site', 'Site', { render: (op) => <SiteCell op={op} />, text: (op) => operationSiteText(op) }),
    col.user('operator', 'Operator'),
    col.enum('status', 'Status', RunStatus, { filter: true, render: (op) => <RunStatusBadge status={op.status} /> }),
    col.custom('tasks', 'Tasks', {
      render: (op) => <TaskCountsCell counts={operationCounts(op)} />,
      text: (op) => countsText(operationCounts(op)),
    }),
    col.datetime('start_at', 'Start At', { filter: 'range', sortable: true }),
    col.datetime('end_at', 'End At', { filter: 'range', sortable: true }),
    durationColumn(),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
    col.text('remark', 'Remark', { searchable: true, filter: true }),
  ],
  rowActions: [{ label: 'Detail', render: (op) => <OpenDetailButton operationId={op.id} /> }],
});
