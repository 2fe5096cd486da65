// The query state of a list screen: page, page size, sort, column filters and the keyword with the
// spec's keyword rules (section 5). It knows nothing of tables, so any screen that lists a resource
// (a table, a card grid, a picker) can drive `useList` with it.
import { type Filter, KEYWORD_MIN_LENGTH, LIST_DEFAULTS, type ListQuery } from '@shared/listQuery';
import type { SortingState } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '@/app/constants';
import { filtersToQuery } from './filtersToQuery';
import type { Column, FilterInput, Resource } from './types';
import { useDebouncedValue } from './useDebouncedValue';

export interface ListStateOptions<T> {
  resource: Pick<Resource<T>, 'columns' | 'defaultSort' | 'pageSize'>;
  /** Columns the keyword searches (the user's choice). */
  searchFields: string[];
  /** Filters the screen fixes; the user does not see or change them. */
  baseFilters?: Record<string, Filter>;
}

/** Why the typed keyword is not sent, as the warning to show; null when it is fine. */
export function keywordProblem(typed: string, searchFields: readonly string[]): string | null {
  if (typed.length > 0 && typed.length < KEYWORD_MIN_LENGTH) return 'At least 3 chars';
  if (typed && searchFields.length === 0) return 'At least 1 search field';
  return null;
}

export function useListState<T>({ resource, searchFields, baseFilters }: ListStateOptions<T>) {
  const columns: Column<T>[] = resource.columns;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState<number>(resource.pageSize ?? LIST_DEFAULTS.pageSize);
  const [sorting, setSortingState] = useState<SortingState>(() =>
    resource.defaultSort.map((s) => ({ id: s.field, desc: s.order === 'desc' })),
  );
  const [filterInputs, setFilterInputs] = useState<Record<string, FilterInput>>({});
  const [keywordText, setKeywordText] = useState('');
  const typed = useDebouncedValue(keywordText.trim(), SEARCH_DEBOUNCE_MS);
  const problem = keywordProblem(typed, searchFields);
  // A keyword the server would refuse is never sent: the last valid one stays in force.
  const [keyword, setKeyword] = useState('');
  const [keywordFields, setKeywordFields] = useState(searchFields);
  useEffect(() => {
    if (problem) return;
    setKeyword(typed);
    setKeywordFields(searchFields);
    setPage(1);
  }, [typed, searchFields, problem]);

  const activeFilters = useMemo(() => filtersToQuery(columns, filterInputs), [columns, filterInputs]);
  const query: ListQuery = useMemo(
    () => ({
      page,
      page_size: pageSize,
      sort: sorting.map((s) => ({ field: s.id, order: s.desc ? 'desc' : 'asc' })),
      keyword: keyword || undefined,
      keywordField: keywordFields,
      filters: { ...activeFilters, ...baseFilters },
    }),
    [page, pageSize, sorting, keyword, keywordFields, activeFilters, baseFilters],
  );

  return {
    query,
    page,
    setPage,
    pageSize,
    /** A new page size starts again at page 1. */
    setPageSize: (size: number) => {
      setPageSizeState(size);
      setPage(1);
    },
    sorting,
    /** A new sort starts again at page 1. */
    setSorting: (updater: SortingState | ((old: SortingState) => SortingState)) => {
      setSortingState(updater);
      setPage(1);
    },
    filterInputs,
    /** The user's filters as sent (without the screen's base filters). */
    activeFilters,
    /** A changed filter starts again at page 1. */
    setFilter: (id: string, input: FilterInput) => {
      setFilterInputs((prev) => ({ ...prev, [id]: input }));
      setPage(1);
    },
    keywordText,
    setKeywordText,
    keywordProblem: problem,
  };
}
