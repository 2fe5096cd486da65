import { EMPTY_TEXT, TIME_FORMAT } from '@/app/constants';
import { formatDate, formatDateTime, userName } from '@/app/format';
import type { EnumDef } from '@shared/enums';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import type { Column, ColumnKind, ColumnOptions } from './types';

/** 'name' or 'site.name': the fields of a row, two levels deep, checked at compile time. */
export type FieldPath<T> = {
  [K in keyof T & string]: NonNullable<T[K]> extends readonly unknown[]
    ? K
    : NonNullable<T[K]> extends object
      ? K | `${K}.${keyof NonNullable<T[K]> & string}`
      : K;
}[keyof T & string];

export function readPath(row: unknown, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function plainText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Time columns hold ms since local midnight, like the protocol's time filters. */
function timeOfDayText(v: unknown): string {
  return typeof v === 'number' ? dayjs().startOf('day').add(v, 'ms').format(TIME_FORMAT) : EMPTY_TEXT;
}

function build<T>(
  kind: ColumnKind,
  id: string,
  label: string,
  opts: ColumnOptions<T, never> & { text?: (v: unknown) => string; enumDef?: EnumDef<string, number | string> },
): Column<T> {
  const toText = opts.text ?? plainText;
  return {
    id,
    label,
    kind,
    enumDef: opts.enumDef,
    searchable: opts.searchable ?? false,
    sortable: opts.sortable ?? false,
    copyable: opts.copyable ?? id === 'id',
    filter: opts.filter === 'range' ? 'range' : opts.filter ? 'single' : false,
    edit: opts.edit,
    toggle: opts.toggle,
    render: opts.render,
    width: opts.width,
    hidden: opts.hidden ?? false,
    help: opts.help,
    exportable: kind !== 'custom',
    value: (row) => readPath(row, id),
    text: (row) => toText(readPath(row, id)),
  };
}

/**
 * Column builders. The row type comes from the resource the column is declared in:
 * `defineResource<Site>({ columns: [col.text('name', 'Name', { searchable: true })] })`.
 */
export const col = {
  text<T>(field: FieldPath<T>, label: string, opts: ColumnOptions<T, string> = {}): Column<T> {
    return build<T>('text', field, label, opts as ColumnOptions<T, never>);
  },
  number<T>(field: FieldPath<T>, label: string, opts: ColumnOptions<T, number> = {}): Column<T> {
    return build<T>('number', field, label, opts as ColumnOptions<T, never>);
  },
  boolean<T>(field: FieldPath<T>, label: string, opts: ColumnOptions<T, boolean> = {}): Column<T> {
    return build<T>('boolean', field, label, {
      ...(opts as ColumnOptions<T, never>),
      text: (v) => (v === null || v === undefined ? '' : String(Boolean(v))),
    });
  },
  enum<T, V extends number | string>(
    field: FieldPath<T>,
    label: string,
    enumDef: EnumDef<string, V>,
    opts: ColumnOptions<T, V> = {},
  ): Column<T> {
    const def = enumDef as unknown as EnumDef<string, number | string>;
    return build<T>('enum', field, label, {
      ...(opts as ColumnOptions<T, never>),
      enumDef: def,
      text: (v) => def.label(v as number | string | null),
    });
  },
  date<T>(field: FieldPath<T>, label: string, opts: ColumnOptions<T, number> = {}): Column<T> {
    return build<T>('date', field, label, {
      ...(opts as ColumnOptions<T, never>),
      text: (v) => formatDate(typeof v === 'number' ? v : null),
    });
  },
  datetime<T>(field: FieldPath<T>, label: string, opts: ColumnOptions<T, number> = {}): Column<T> {
    return build<T>('datetime', field, label, {
      ...(opts as ColumnOptions<T, never>),
      text: (v) => formatDateTime(typeof v === 'number' ? v : null),
    });
  },
  time<T>(field: FieldPath<T>, label: string, opts: ColumnOptions<T, number> = {}): Column<T> {
    return build<T>('time', field, label, { ...(opts as ColumnOptions<T, never>), text: timeOfDayText });
  },
  /** A user reference ({nickname} or null): shows the nickname, or SYSTEM. */
  user<T>(field: FieldPath<T>, label: string, opts: ColumnOptions<T, never> = {}): Column<T> {
    return build<T>('user', field, label, { ...opts, text: (v) => userName(v as Parameters<typeof userName>[0]) });
  },
  /**
   * Anything else; `id` need not be a field. Give `text` so export and copy have something to use;
   * with `text` alone the cell shows that text.
   */
  custom<T>(
    id: string,
    label: string,
    opts: ColumnOptions<T, never> &
      ({ render: (row: T) => ReactNode; text?: (row: T) => string } | { text: (row: T) => string }),
  ): Column<T> {
    const { text, ...rest } = opts;
    const column = build<T>('custom', id, label, rest);
    return text ? { ...column, text, exportable: true } : column;
  },
};
