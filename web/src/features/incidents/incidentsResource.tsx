// The Incidents screen (under Message): every incident, newest first, filterable by status, kind,
// site, process and mode, or bank and account; a row opens its detail with the timeline and the actions.
import { Open16Regular } from '@fluentui/react-icons';
import { Bank, Process, TestMode } from '@shared/enums';
import {
  type Incident,
  IncidentKind,
  IncidentSeverity,
  IncidentStatus,
  incidentListFields,
} from '@shared/schemas/incidents';
import { navigateTo } from '@/app/navigation';
import { pathOf } from '@/app/paths';
import { col, defineResource } from '@/components/table';
import { INCIDENTS } from './incidentsApi';
import { FamilyCell } from './FamilyCell';
import { IncidentStatusBadge } from './IncidentStatusBadge';

export const incidentsResource = defineResource<Incident>({
  name: INCIDENTS,
  endpoint: '/incidents',
  title: 'Incidents',
  listFields: incidentListFields,
  rowId: (i) => i.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch incidents failed.',
  columns: [
    col.number('id', 'ID'),
    col.enum('status', 'Status', IncidentStatus, {
      filter: true,
      sortable: true,
      render: (i) => <IncidentStatusBadge status={i.status} />,
    }),
    // A check's incident names its site, process and mode; a bank's its bank, account and rule (issue 45).
    col.enum('kind', 'Kind', IncidentKind, { filter: true }),
    col.text('site_name', 'Site', { searchable: true, filter: true, sortable: true }),
    col.enum('process', 'Process', Process, { filter: true }),
    col.enum('mode', 'Mode', TestMode, { filter: true }),
    col.enum('bank_name', 'Bank', Bank, { filter: true }),
    col.text('account_user', 'Account', { searchable: true, filter: true }),
    col.text('rule_name', 'Alert rule'),
    col.enum('severity', 'Severity', IncidentSeverity, { filter: true, sortable: true }),
    // A parent's children are folded under it: its cell opens the list of them (issue 45).
    col.custom('children', 'Children', {
      text: (i) => (i.cause ? String(i.children) : ''),
      render: (i) => <FamilyCell incident={i} />,
    }),
    col.number('failures', 'Failures', { sortable: true, filter: true }),
    col.datetime('opened_at', 'Opened At', { sortable: true, filter: 'range' }),
    col.datetime('last_failure_at', 'Last Failure', { sortable: true, filter: 'range' }),
    col.text('last_message', 'Last Message', { searchable: true }),
    col.custom('acknowledged_by', 'Acknowledged By', { text: (i) => i.acknowledged_by?.nickname ?? '' }),
    col.datetime('snoozed_until', 'Snoozed Until', { filter: 'range' }),
    col.datetime('resolved_at', 'Resolved At', { sortable: true, filter: 'range' }),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range', hidden: true }),
  ],
  rowActions: [
    {
      label: 'Detail',
      icon: <Open16Regular />,
      onClick: (i) => navigateTo(pathOf('incidentDetail', { incidentID: i.id })),
    },
  ],
});
