import { TestMode } from '@shared/enums';
import { type CheckLog, checkLogListFields, type LogKind } from '@shared/schemas/checks';
import { type Column, col, defineResource, type Resource } from '@/components/table';
import { RawLogButton } from '@/features/browser/RawLogDialog';
import { t } from '@/i18n';
import { logKinds, rowCaption } from './logKinds';

// Every log row carries these (spec section 3, "Log rows share"); the kind's own columns go between.
const leading = (): Column<CheckLog>[] => [
  col.number('id', 'ID', { filter: true, sortable: true }),
  col.number('task_id', 'Task ID', { filter: true, copyable: true }),
  col.number('subtask_id', 'SubTask ID', { filter: true, copyable: true }),
  col.text('site.name', 'Site'),
  col.enum('mode', 'Mode', TestMode, { filter: true }),
  col.text('account.user', 'Account'),
];

const trailing = (): Column<CheckLog>[] => [
  col.boolean('success', 'Finished', { filter: true }),
  col.number('raw_log_id', 'Raw Log ID', { filter: true, hidden: true }),
  col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
  col.custom('browser_log', 'BrowserLog', {
    render: (r) => (
      <RawLogButton
        source={{ businessId: r.id }}
        title={t('BrowserLog')}
        subtitle={rowCaption(r)}
        disabled={r.raw_log_id === null}
      />
    ),
  }),
];

/** The list of one log kind: GET /check/results/{kind}, newest first. */
export function logResource(kind: LogKind): Resource<CheckLog> {
  const def = logKinds[kind];
  return defineResource<CheckLog>({
    name: def.name,
    endpoint: `/check/results/${kind}`,
    listFields: checkLogListFields,
    title: def.title,
    rowId: (r) => r.id,
    defaultSort: { field: 'created_at', order: 'desc' },
    columns: [...leading(), ...def.columns, ...trailing()],
  });
}

export const logResources = Object.fromEntries(
  Object.keys(logKinds).map((kind) => [kind, logResource(kind as LogKind)]),
) as Record<LogKind, Resource<CheckLog>>;
