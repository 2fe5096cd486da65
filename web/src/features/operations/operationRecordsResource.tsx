import { MessageAction } from '@shared/enums';
import { type EngineEvent, engineEventListFields } from '@shared/schemas/checks';
import { pathOf } from '@/app/paths';
import { col, defineResource } from '@/components/table';
import { RouteLink } from '@/components/display/RouteLink';

export const operationRecordsResource = defineResource<EngineEvent>({
  name: 'operationRecords',
  endpoint: '/operations/records',
  listFields: engineEventListFields,
  title: 'Operation Records',
  rowId: (e) => e.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch operation records failed.',
  columns: [
    col.number('id', 'ID', { sortable: true }),
    col.enum('action', 'Action', MessageAction, { filter: true }),
    col.number('operation_id', 'Operation', {
      filter: true,
      render: (e) => (
        <RouteLink to={pathOf('operationDetail', { operationID: e.operation_id })}>#{e.operation_id}</RouteLink>
      ),
    }),
    col.number('task_id', 'Task ID'),
    col.number('subtask_id', 'SubTask ID'),
    col.text('message', 'Message', { searchable: true, filter: true }),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
  ],
});
