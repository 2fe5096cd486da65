// The audit trail (Super config issue, item 3): read-only, newest first, filtered by user, action,
// target, outcome or a refused login's reason. What was asked and what it became are shown as the server stored them
// (JSON with every secret-named field already left out).
import { Badge } from '@fluentui/react-components';
import { LoginFailure } from '@shared/enums';
import { type AuditEntry, AuditOutcome, auditListFields } from '@shared/schemas/audit';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';

export const auditResource = defineResource<AuditEntry>({
  name: 'superAudit',
  endpoint: '/super/audit',
  title: 'Audit log',
  listFields: auditListFields,
  rowId: (a) => a.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch audit log failed.',
  columns: [
    col.number('id', 'ID', { sortable: true }),
    col.datetime('created_at', 'Time', { sortable: true, filter: 'range' }),
    col.number('actor_id', 'User ID', { filter: true }),
    col.text('actor_name', 'User', { searchable: true, filter: true, sortable: true }),
    col.text('action', 'Action', { searchable: true, filter: true, sortable: true }),
    col.text('target', 'Target', { searchable: true, filter: true }),
    col.text('outcome', 'Outcome', {
      filter: true,
      render: (a) => (
        <Badge appearance="tint" color={a.outcome === AuditOutcome.Allowed ? 'success' : 'danger'}>
          {t(a.outcome === AuditOutcome.Allowed ? 'Allowed' : 'Refused')}
        </Badge>
      ),
    }),
    col.number('status', 'Status', { filter: true }),
    // A refused login's reason: filtering on it shows an attack (many unknown usernames from one address).
    col.enum('reason', 'Reason', LoginFailure, { filter: true, sortable: true }),
    col.text('client_ip', 'Client IP', { filter: true }),
    col.text('input', 'Request'),
    col.text('after', 'Reply', { hidden: true }),
    col.text('request_id', 'Request ID', { filter: true, hidden: true, copyable: true }),
  ],
});
