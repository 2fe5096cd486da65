import type { Filter } from '@shared/listQuery';
import dayjs from 'dayjs';
import type { Column, FilterInput } from './types';

const MINUTE_MS = 60_000;

/**
 * A picked moment covers its whole unit as the user reads it: a date the whole local day,
 * a datetime or time (shown as HH:mm) its whole minute.
 */
function span(kind: Column<unknown>['kind'], at: number): { start: number; end: number } {
  if (kind === 'date') return { start: dayjs(at).startOf('day').valueOf(), end: dayjs(at).endOf('day').valueOf() };
  const start = at - (((at % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
  return { start, end: start + MINUTE_MS - 1 };
}

/** One header filter as the protocol's Filter, or undefined when it filters nothing. */
export function filterInputToFilter(column: Pick<Column<unknown>, 'kind'>, input: FilterInput): Filter | undefined {
  switch (input.kind) {
    case 'text': {
      const value = input.value.trim();
      return value ? { kind: 'text', value } : undefined;
    }
    case 'boolean':
      return input.value === null ? undefined : { kind: 'boolean', value: input.value };
    case 'enum':
      return input.values.length ? { kind: 'enum', values: [...input.values] } : undefined;
    case 'number': {
      const raw = input.value.trim();
      const value = Number(raw);
      return raw !== '' && Number.isFinite(value) ? { kind: 'number', op: input.op, value } : undefined;
    }
    case 'moment':
      return input.at === null ? undefined : { kind: 'range', ...span(column.kind, input.at) };
    case 'range': {
      if (input.start === null && input.end === null) return undefined;
      // A recent range already ends now; a picked end includes its whole day or minute.
      const end = input.end === null ? undefined : input.recent ? input.end : span(column.kind, input.end).end;
      const start =
        input.start === null ? undefined : input.recent ? input.start : span(column.kind, input.start).start;
      return { kind: 'range', start, end };
    }
  }
}

/**
 * Header filters -> `ListQuery.filters`, keyed by column id. Inputs of unknown columns are
 * dropped, so a saved filter of a removed column cannot break the request.
 */
export function filtersToQuery<T>(
  columns: readonly Pick<Column<T>, 'id' | 'kind'>[],
  inputs: Readonly<Record<string, FilterInput | undefined>>,
): Record<string, Filter> {
  const out: Record<string, Filter> = {};
  for (const column of columns) {
    const input = inputs[column.id];
    const filter = input && filterInputToFilter(column, input);
    if (filter) out[column.id] = filter;
  }
  return out;
}
