import type { EnumDef } from '@shared/enums';
import type { ListFields, NumberOp, SortBy } from '@shared/listQuery';
import type { ReactElement, ReactNode } from 'react';

/** How a column shows, filters and exports its value. */
export type ColumnKind = 'text' | 'number' | 'boolean' | 'enum' | 'date' | 'datetime' | 'time' | 'user' | 'custom';

/** Kinds whose filter is a pick of a moment (or a range of them). */
export type MomentKind = 'date' | 'datetime' | 'time';

export interface ColumnEdit<T, V> {
  /** Persists the new value; reject to keep the popup open (request() already shows the failure tip). */
  save(row: T, value: V): Promise<unknown>;
  /** Help under the input, e.g. 'Give the full address including http(s)://'. */
  hint?: string;
}

export interface ColumnOptions<T, V = unknown> {
  /** Offered in the search-column dialog and searched by the keyword (text columns). */
  searchable?: boolean;
  sortable?: boolean;
  /** Copy button in the cell; always on for the `id` field. */
  copyable?: boolean;
  /** A filter in the header: `true` for the type's own filter, `'range'` for a start/end range (dates, times). */
  filter?: boolean | 'range';
  /** Inline edit popup with Save. */
  edit?: ColumnEdit<T, V>;
  /** A switch in the row (boolean columns). */
  toggle?: (row: T, value: boolean) => Promise<unknown>;
  /** Replaces the cell's content; the value still drives export and copy. */
  render?: (row: T) => ReactNode;
  /** Minimum width in px. */
  width?: number;
  /** Hidden until shown in the column dialog. */
  hidden?: boolean;
  /** Help for the column (English, translated by the table), behind an info button in its header. */
  help?: string;
}

export interface Column<T> {
  /** The field path ('name', 'site.name'); also its sort, filter and keywordField name on the wire. */
  readonly id: string;
  readonly label: string;
  readonly kind: ColumnKind;
  readonly enumDef?: EnumDef<string, number | string>;
  readonly searchable: boolean;
  readonly sortable: boolean;
  readonly copyable: boolean;
  readonly filter: false | 'single' | 'range';
  readonly edit?: ColumnEdit<T, never>;
  readonly toggle?: (row: T, value: boolean) => Promise<unknown>;
  readonly render?: (row: T) => ReactNode;
  readonly width?: number;
  readonly hidden: boolean;
  readonly help?: string;
  /** Goes into CSV/JSON exports (custom columns only when they give `text`). */
  readonly exportable: boolean;
  /** The raw value (JSON export, edit popup's initial value, toggle state). */
  value(row: T): unknown;
  /** The text a user reads (cell, CSV, clipboard). */
  text(row: T): string;
}

/** What table and row actions get to work with. */
export interface ActionContext<T> {
  /** Selected rows, across pages. */
  selected: T[];
  clearSelection(): void;
  refetch(): Promise<unknown>;
}

export interface TableAction<T> {
  label: string;
  icon?: ReactElement;
  appearance?: 'primary' | 'secondary' | 'subtle' | 'outline';
  onClick?(ctx: ActionContext<T>): void;
  /**
   * Tooltip shown while nothing is selected; the action is disabled until rows are
   * selected and then shows the count, e.g. 'BatchCheck (3)'.
   */
  requiresSelection?: string;
  /** Full control (dialog triggers and such); replaces the button. */
  render?(ctx: ActionContext<T>): ReactNode;
  /** It changes something (or reveals a secret): not offered to a viewer, whom the server refuses anyway. */
  write?: boolean;
}

export interface RowAction<T> {
  label: string;
  icon?: ReactElement;
  onClick?(row: T, ctx: ActionContext<T>): unknown;
  /** Asks first; returns the question as shown, e.g. (s) => t('Confirm Delete Site {name}?', { name: s.name }). */
  confirm?(row: T): string;
  disabled?(row: T): boolean;
  /** Full control (a button that opens its own dialog); replaces the button. */
  render?(row: T, ctx: ActionContext<T>): ReactNode;
  /** It changes something (or reveals a secret): not offered to a viewer, whom the server refuses anyway. */
  write?: boolean;
}

export interface ResourceConfig<T> {
  /** List name: query key, localStorage key and export file prefix. */
  name: string;
  /** Below /api/v1, e.g. '/sites'. */
  endpoint: string;
  title: string;
  /**
   * The list's declaration in shared/schemas (e.g. `siteListFields`), the one the server parses with:
   * a column offers sort, a filter or keyword search only where it offers them.
   */
  listFields: ListFields;
  rowId(row: T): string | number;
  columns: Column<T>[];
  actions?: TableAction<T>[];
  rowActions?: RowAction<T>[];
  /** Starts in select mode (multi-select checkboxes). */
  selectable?: boolean;
  defaultSort?: SortBy | SortBy[];
  /** Initial page size, one of 10, 20, 50, 100 or 0 (all); 20 when absent. */
  pageSize?: number;
  /** Toast when the list call fails, e.g. 'Fetch sites failed.' */
  failureTip?: string;
}

export interface Resource<T> extends Omit<ResourceConfig<T>, 'defaultSort' | 'actions' | 'rowActions' | 'selectable'> {
  readonly actions: TableAction<T>[];
  readonly rowActions: RowAction<T>[];
  readonly selectable: boolean;
  readonly defaultSort: SortBy[];
}

/**
 * What a header filter holds while the user edits it. `filtersToQuery` turns it into the
 * protocol's `Filter`; moments are local-time millisecond stamps (time: ms since midnight).
 */
export type FilterInput =
  | { kind: 'text'; value: string }
  | { kind: 'boolean'; value: boolean | null }
  | { kind: 'enum'; values: (number | string)[] }
  | { kind: 'number'; op: NumberOp; value: string }
  | { kind: 'moment'; at: number | null }
  | { kind: 'range'; start: number | null; end: number | null; recent?: string };
