// Columns that every run-level table (operations, tasks, subtasks) shares.
import { formatSeconds } from '@/app/format';
import { pathOf } from '@/app/paths';
import { type Column, col, type FieldPath } from '@/components/table';
import { durationMs } from './checksApi';
import { RouteLink } from '@/components/display/RouteLink';

interface Timed {
  start_at: number | null;
  end_at: number | null;
}

/** Duration from start to end (to now while running), hidden until chosen in the column dialog. */
export function durationColumn<T extends Timed>(): Column<T> {
  return col.custom<T>('duration', 'Duration', {
    hidden: true,
    text: (row) => formatSeconds(durationMs(row.start_at, row.end_at)),
  });
}

/** The operation a task or subtask belongs to, as '#12' linking to its detail page. */
export function operationColumn<T extends { operation_id: number }>(opts: { hidden?: boolean } = {}): Column<T> {
  return col.number<T>('operation_id' as FieldPath<T>, 'Operation', {
    filter: true,
    hidden: opts.hidden,
    render: (row) => (
      <RouteLink to={pathOf('operationDetail', { operationID: row.operation_id })}>#{row.operation_id}</RouteLink>
    ),
  });
}
