import { TaskStatus } from '@shared/enums';
import { type Task, taskListFields } from '@shared/schemas/checks';
import { col, defineResource } from '@/components/table';
import { RunStatusBadge } from '@/components/display/RunStatusBadge';
import { durationColumn, operationColumn } from './runColumns';
import { TaskCheckpointsButton } from './TaskCheckpointsButton';
import { countsText, TaskCountsCell, taskCounts } from './TaskCountsCell';
import { TaskDetailButton } from './TaskDetailDialog';

export const tasksResource = defineResource<Task>({
  name: 'tasks',
  endpoint: '/check/tasks',
  listFields: taskListFields,
  title: 'Tasks',
  rowId: (task) => task.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch tasks failed.',
  columns: [
    col.number('id', 'ID', { filter: true, sortable: true }),
    operationColumn(),
    col.text('site.name', 'Site'),
    col.enum('status', 'Status', TaskStatus, {
      filter: true,
      render: (task) => <RunStatusBadge status={task.status} />,
    }),
    col.custom('counts', 'Sub Tasks', {
      render: (task) => <TaskCountsCell counts={taskCounts(task)} />,
      text: (task) => countsText(taskCounts(task)),
    }),
    col.user('creator', 'Creator'),
    col.datetime('start_at', 'Start At', { filter: 'range', sortable: true }),
    col.datetime('end_at', 'End At', { filter: 'range', sortable: true }),
    durationColumn(),
    col.text('remark', 'Remark', { searchable: true, filter: true, hidden: true }),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true, hidden: true }),
  ],
  rowActions: [
    { label: 'Checkpoint', render: (task) => <TaskCheckpointsButton task={task} /> },
    { label: 'Detail', render: (task) => <TaskDetailButton taskId={task.id} /> },
  ],
});
