// The Incidents screen (under Message): every incident, newest first, filterable by status, site,
// process and mode; a row opens its detail with the timeline and the actions.
import { Open16Regular } from '@fluentui/react-icons';
import { Process, TestMode } from '@shared/enums';
import { type Incident, IncidentStatus, incidentListFields } from '@shared/schemas/incidents';
import { navigateTo } from '@/app/navigation';
import { pathOf } from '@/app/paths';
import { col, defineResource } from '@/components/table';
import { INCIDENTS } from './incidentsApi';
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
    col.text('site_name', 'Site', { searchable: true, filter: true, sortable: true }),
    col.enum('process', 'Process', Process, { filter: true }),
    col.enum('mode', 'Mode', TestMode, { filter: true }),
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
