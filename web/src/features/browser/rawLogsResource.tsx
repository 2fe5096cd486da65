import { Process } from '@shared/enums';
import { type RawLog, rawLogListFields } from '@shared/schemas/checks';
import { col, defineResource } from '@/components/table';
import { InfoAlertDialogButton } from './InfoAlertDialogButton';
import { RawLogButton } from './RawLogDialog';
import { formatResult } from './RawLogView';
import { t } from '@/i18n';

/** What the raw log dialog and the result alert of a row are titled: the log id and process name. */
export const rawLogTitle = (log: Pick<RawLog, 'id' | 'process'>) => `#${log.id} ${t(Process.label(log.process))}`;

export const rawLogsResource = defineResource<RawLog>({
  name: 'browserLogs',
  endpoint: '/raw/logs',
  listFields: rawLogListFields,
  title: 'Browser Log',
  rowId: (r) => r.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Load raw logs failed.',
  columns: [
    col.number('id', 'ID', { filter: true, sortable: true }),
    col.enum('process', 'Process', Process, { filter: true }),
    col.number('business_id', 'BusinessID', {
      filter: true,
      copyable: true,
      help: 'Generally refers to the related CheckLog ID',
    }),
    col.number('subtask_id', 'SubTask ID', { filter: true, hidden: true }),
    col.boolean('success', 'Finished', { filter: true }),
    col.text('remark', 'Remark', { searchable: true, filter: true }),
    col.custom('result', 'Result', {
      render: (r) => (
        <InfoAlertDialogButton
          title={`${t('Result')} · ${rawLogTitle(r)}`}
          text={formatResult(r.result)}
          preformatted
        />
      ),
      text: (r) => formatResult(r.result),
    }),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
  ],
  rowActions: [
    {
      label: 'View',
      render: (r) => <RawLogButton source={{ id: r.id }} title={rawLogTitle(r)} placeholder={r} />,
    },
  ],
});
