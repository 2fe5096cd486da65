import { Process, RunStatus, TestMode } from '@shared/enums';
import { type Subtask, subtaskListFields } from '@shared/schemas/checks';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';
import { CheckLogsButton } from './CheckResultsDialog';
import { CompareButton } from './SubtaskComparePage';
import { LongTextCell } from '@/components/display/LongTextCell';
import { SubtaskOutcome } from './SubtaskOutcome';
import { durationColumn, operationColumn } from './runColumns';

export const subtasksResource = defineResource<Subtask>({
  name: 'subtasks',
  endpoint: '/check/subtasks',
  listFields: subtaskListFields,
  title: 'Sub Tasks',
  rowId: (s) => s.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch sub tasks failed.',
  columns: [
    col.number('id', 'ID', { filter: true, sortable: true }),
    col.number('task_id', 'Task ID', { filter: true, copyable: false }),
    operationColumn({ hidden: true }),
    col.text('site.name', 'Site'),
    col.enum('process', 'Process', Process, { filter: true }),
    col.enum('mode', 'Mode', TestMode, { filter: true }),
    col.enum('status', 'Status', RunStatus, { filter: true, render: (s) => <SubtaskOutcome subtask={s} /> }),
    col.number('attempts', 'Attempts', { filter: true, sortable: true, copyable: false }),
    col.boolean('flaky', 'Flaky', { filter: true }),
    col.boolean('degraded', 'Slow', { filter: true }),
    col.text('msg', 'Msg', {
      searchable: true,
      filter: true,
      render: (s) => (
        <LongTextCell
          title={`${t('SubTask')} #${s.id} · ${t(Process.label(s.process))}`}
          text={s.msg}
          preformatted
          buttonLabel="Show message"
        />
      ),
    }),
    col.datetime('start_at', 'Start At', { filter: 'range', sortable: true }),
    col.datetime('end_at', 'End At', { filter: 'range', sortable: true }),
    durationColumn(),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
  ],
  rowActions: [
    { label: 'Logs', render: (s) => <CheckLogsButton subtask={s} /> },
    { label: 'Compare', render: (s) => <CompareButton subtask={s} /> },
  ],
});
