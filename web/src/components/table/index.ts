// The one generic table (style rule 5): declare a resource, render <ResourceTable resource={...} />.
export { col, type FieldPath, readPath } from './col';
export { defineResource } from './defineResource';
export { buildCsv, buildJson, exportFileName } from './exportRows';
export { filterInputToFilter, filtersToQuery } from './filtersToQuery';
export { DEFAULT_RECENT_RANGE, RECENT_RANGES, resolveRecentRange } from './recentRanges';
export { ResourceTable, type ResourceTableProps } from './ResourceTable';
export { type ListStateOptions, useListState } from './useListState';
export { type ControlledSelection, useSelection } from './useSelection';
export { VIRTUALIZE_AFTER } from './useVirtualRows';
export type {
  ActionContext,
  Column,
  ColumnEdit,
  ColumnKind,
  ColumnOptions,
  FilterInput,
  Resource,
  ResourceConfig,
  RowAction,
  TableAction,
} from './types';
export { type UseListOptions, useList } from './useList';
