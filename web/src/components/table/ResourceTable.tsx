import { SEARCH_DEBOUNCE_MS } from '@/app/constants';
import { toast } from '@/app/toast';
import { useT } from '@/i18n';
import {
  Button,
  Field,
  Input,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  mergeClasses,
  ProgressBar,
  Spinner,
  Subtitle1,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TableSelectionCell,
  Tag,
  TagGroup,
  ToggleButton,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowClockwise20Regular,
  ArrowDownload20Regular,
  CheckboxChecked20Regular,
  ColumnTriple20Regular,
  FullScreenMaximize20Regular,
  FullScreenMinimize20Regular,
  Search20Regular,
  TextBulletListSquareSearch20Regular,
} from '@fluentui/react-icons';
import { type Filter, KEYWORD_MIN_LENGTH, LIST_DEFAULTS, type ListQuery } from '@shared/listQuery';
import {
  type ColumnDef,
  getCoreRowModel,
  type RowSelectionState,
  type SortingState,
  type Row,
  type Updater,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  type ReactNode,
  type RefObject,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type CellEnv, renderCell, useCellClasses } from './CellContent';
import { ChecklistDialog } from './ChecklistDialog';
import { ColumnHelp } from './ColumnHelp';
import { buildCsv, buildJson, downloadText, exportFileName } from './exportRows';
import { emptyFilterInput, FilterPopover } from './FilterPopover';
import { filterSummary } from './filterSummary';
import { filtersToQuery } from './filtersToQuery';
import { RowActionButton, TableActionButton } from './TableActions';
import { TablePagination } from './TablePagination';
import type { ActionContext, Column, FilterInput, Resource, RowAction } from './types';
import { useDebouncedValue } from './useDebouncedValue';
import { useList } from './useList';
import { defaultSearchFields, useTableSettings } from './useTableSettings';

/** Pages longer than this render only the rows in view. */
export const VIRTUALIZE_AFTER = 200;
/** A first guess only: rows are measured once mounted (37 px with a switch or checkbox in them). */
const ROW_HEIGHT_ESTIMATE = 37;
const OPERATIONS_COLUMN = '__operations';
const NO_ROWS: never[] = [];

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    minWidth: 0,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  fullscreen: {
    position: 'fixed',
    inset: 0,
    zIndex: 1000,
    borderRadius: 0,
    height: '100vh',
  },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
  },
  title: { marginRight: tokens.spacingHorizontalM },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  tools: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    flexWrap: 'wrap',
    marginLeft: 'auto',
  },
  search: { width: '240px', '@media (max-width: 600px)': { width: '100%' } },
  tags: { padding: `0 ${tokens.spacingHorizontalM} ${tokens.spacingVerticalS}` },
  progress: { height: '2px' },
  progressIdle: { visibility: 'hidden' },
  scroll: { overflow: 'auto', minHeight: 0 },
  scrollBounded: { maxHeight: '70vh' },
  scrollFill: { flexGrow: 1 },
  head: {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  // Columns size to their content (Fluent's default is equal fixed widths); the box scrolls sideways when narrow.
  table: { tableLayout: 'auto', minWidth: '100%', width: 'max-content' },
  headerCell: { fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap' },
  // Label (sort button) and filter button side by side, not stacked.
  headerButton: { width: 'auto', display: 'inline-flex', verticalAlign: 'middle' },
  headerAside: { display: 'inline-flex', verticalAlign: 'middle' },
  // Body rows and cells are plain elements styled like Fluent's small Table rows: a page of 100
  // rows is ~1,000 cells, and a Fluent component per cell made it the slowest part of every screen.
  bodyRow: {
    boxSizing: 'border-box',
    color: tokens.colorNeutralForeground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover, color: tokens.colorNeutralForeground1Hover },
    // The pinned operations cell has its own (opaque) background; it follows the row's.
    '&:hover > [data-pinned]': { backgroundColor: tokens.colorSubtleBackgroundHover },
  },
  bodyRowSelected: {
    backgroundColor: tokens.colorBrandBackground2,
    ':hover': { backgroundColor: tokens.colorBrandBackground2Hover, color: tokens.colorNeutralForeground1 },
    '& > [data-pinned]': { backgroundColor: tokens.colorBrandBackground2 },
    '&:hover > [data-pinned]': { backgroundColor: tokens.colorBrandBackground2Hover },
  },
  cell: {
    position: 'relative',
    height: '34px',
    verticalAlign: 'middle',
    padding: `0 ${tokens.spacingHorizontalS}`,
    whiteSpace: 'nowrap',
  },
  empty: {
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXL} 0`,
    color: tokens.colorNeutralForeground3,
  },
  operations: { display: 'flex', gap: tokens.spacingHorizontalXS },
  // The row buttons stay in reach however wide the other columns get: pinned to the right edge.
  stickyEnd: {
    position: 'sticky',
    right: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: `-1px 0 0 ${tokens.colorNeutralStroke2}`,
  },
});

export interface ResourceTableProps<T> {
  resource: Resource<T>;
  /** Filters the screen fixes (e.g. the sub-account of a detail page); the user does not see or change them. */
  baseFilters?: Record<string, Filter>;
  /** Extra toolbar content after the resource's actions. */
  toolbar?: ReactNode;
}

type Sel<T> = Map<string, T>;

/** Any list screen: a resource's columns over its list call, with every common table feature of spec section 2. */
export function ResourceTable<T>({ resource, baseFilters, toolbar }: ResourceTableProps<T>) {
  const t = useT();
  const styles = useStyles();
  const columns = resource.columns;
  const { visibility, setVisibility, searchFields, setSearchFields } = useTableSettings(resource.name, columns);

  // ---- query state
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(resource.pageSize ?? LIST_DEFAULTS.pageSize);
  const [sorting, setSorting] = useState<SortingState>(() =>
    resource.defaultSort.map((s) => ({ id: s.field, desc: s.order === 'desc' })),
  );
  const [filterInputs, setFilterInputs] = useState<Record<string, FilterInput>>({});
  const [keywordText, setKeywordText] = useState('');
  const typed = useDebouncedValue(keywordText.trim(), SEARCH_DEBOUNCE_MS);
  const keywordProblem =
    typed.length > 0 && typed.length < KEYWORD_MIN_LENGTH
      ? 'At least 3 chars'
      : typed && searchFields.length === 0
        ? 'At least 1 search field'
        : null;
  // A keyword the server would refuse is never sent: the last valid one stays in force.
  const [keyword, setKeyword] = useState('');
  const [keywordFields, setKeywordFields] = useState(searchFields);
  useEffect(() => {
    if (keywordProblem) return;
    setKeyword(typed);
    setKeywordFields(searchFields);
    setPage(1);
  }, [typed, searchFields, keywordProblem]);

  const query: ListQuery = useMemo(
    () => ({
      page,
      page_size: pageSize,
      sort: sorting.map((s) => ({ field: s.id, order: s.desc ? 'desc' : 'asc' })),
      keyword: keyword || undefined,
      keywordField: keywordFields,
      filters: { ...filtersToQuery(columns, filterInputs), ...baseFilters },
    }),
    [page, pageSize, sorting, keyword, keywordFields, columns, filterInputs, baseFilters],
  );

  // ---- view state
  const [autoRefresh, setAutoRefresh] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [selectMode, setSelectMode] = useState(resource.selectable);
  const [selected, setSelected] = useState<Sel<T>>(() => new Map());

  const list = useList<T>(resource, query, { autoRefresh });
  // A new page renders in a background (interruptible) pass, so a long page never blocks typing or
  // scrolling for the whole render; the toolbar and the previous page stay live meanwhile, and the
  // rows and the pager switch together.
  const shown = useDeferredValue(list.data);
  const catchingUp = shown !== list.data;
  const shownRows = shown?.result ?? NO_ROWS;
  const total = shown?.total_count ?? 0;
  const pageCount = pageSize === 0 ? 1 : Math.max(1, Math.ceil(total / pageSize));

  const refetch = list.refetch;
  const clearSelection = useCallback(() => setSelected(new Map()), []);
  // One ctx for the table's lifetime (rows are memoised on it); `selected` is read when an action runs.
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const ctx: ActionContext<T> = useMemo(
    () => ({
      get selected() {
        return [...selectedRef.current.values()];
      },
      clearSelection,
      refetch,
    }),
    [clearSelection, refetch],
  );

  useEffect(() => {
    if (!fullscreen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setFullscreen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [fullscreen]);

  // ---- table model (TanStack): visibility, sorting and selection are controlled here, rows come from the server.
  const rowKey = useCallback((row: T) => String(resource.rowId(row)), [resource]);
  const rowSelection: RowSelectionState = useMemo(
    () => Object.fromEntries([...selected.keys()].map((id) => [id, true])),
    [selected],
  );
  const onRowSelectionChange = (updater: Updater<RowSelectionState>) => {
    const next = typeof updater === 'function' ? updater(rowSelection) : updater;
    const onPage = new Map(shownRows.map((r) => [rowKey(r), r]));
    setSelected((prev) => {
      const out: Sel<T> = new Map();
      for (const [id, on] of Object.entries(next)) {
        const row = prev.get(id) ?? onPage.get(id);
        if (on && row !== undefined) out.set(id, row);
      }
      return out;
    });
  };

  const columnDefs = useMemo<ColumnDef<T>[]>(() => {
    const defs: ColumnDef<T>[] = columns.map((c) => ({
      id: c.id,
      accessorFn: (row: T) => c.value(row),
      enableSorting: c.sortable,
      enableHiding: true,
      meta: { column: c },
    }));
    if (resource.rowActions.length) {
      defs.push({ id: OPERATIONS_COLUMN, enableSorting: false, enableHiding: false });
    }
    return defs;
  }, [columns, resource.rowActions.length]);

  const classes = useCellClasses();
  const cellEnv: CellEnv = useMemo(() => ({ t, classes, onSaved: refetch }), [t, classes, refetch]);

  const table = useReactTable<T>({
    data: shownRows,
    columns: columnDefs,
    getRowId: rowKey,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualFiltering: true,
    enableMultiSort: false,
    sortDescFirst: false,
    enableRowSelection: selectMode,
    state: {
      sorting,
      columnVisibility: visibility,
      rowSelection,
    },
    onSortingChange: (updater) => {
      setSorting(updater);
      setPage(1);
    },
    onRowSelectionChange,
  });

  // ---- virtualisation for long pages (page size All)
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRows = table.getRowModel().rows;
  const virtual = tableRows.length > VIRTUALIZE_AFTER;

  // ---- handlers
  const setFilter = (id: string, input: FilterInput) => {
    setFilterInputs((prev) => ({ ...prev, [id]: input }));
    setPage(1);
  };
  const activeFilters = filtersToQuery(columns, filterInputs);
  const exportColumns = columns.filter((c) => c.exportable && visibility[c.id] !== false);
  const exportAs = (ext: 'csv' | 'json') => {
    const chosen = [...selected.values()];
    const text = ext === 'csv' ? buildCsv(chosen, exportColumns) : buildJson(chosen, exportColumns);
    downloadText(
      exportFileName(resource.name, ext),
      text,
      ext === 'csv' ? 'text/csv;charset=utf-8' : 'application/json;charset=utf-8',
    );
    toast.success(t('Exported {count} rows', { count: chosen.length }));
  };

  const visibleLeafColumns = table.getVisibleLeafColumns();
  // The body's columns in order (null: the operations column, always last), from the same state the
  // header's columns come from; a new list only when visibility changes, so memoised rows stay put.
  const hasRowActions = resource.rowActions.length > 0;
  const bodyColumns = useMemo(
    () => [...columns.filter((c) => visibility[c.id] !== false), ...(hasRowActions ? [null] : [])],
    [columns, visibility, hasRowActions],
  );
  const colSpan = visibleLeafColumns.length + (selectMode ? 1 : 0);
  const searchable = columns.filter((c) => c.searchable);
  const allPageSelected = table.getIsAllPageRowsSelected();
  const somePageSelected = table.getIsSomePageRowsSelected();

  return (
    <section className={mergeClasses(styles.root, fullscreen && styles.fullscreen)} aria-label={t(resource.title)}>
      <div className={styles.toolbar}>
        <Subtitle1 as="h2" className={styles.title}>
          {t(resource.title)}
        </Subtitle1>
        <div className={styles.actions}>
          {resource.actions.map((a, i) => (
            <TableActionButton key={`${a.label}-${i}`} action={a} ctx={ctx} />
          ))}
          {toolbar}
        </div>
        <div className={styles.tools}>
          <Field
            className={styles.search}
            validationState={keywordProblem ? 'warning' : 'none'}
            validationMessage={keywordProblem ? t(keywordProblem) : undefined}
          >
            <Input
              type="search"
              aria-label={t('Search')}
              placeholder={t('Search')}
              contentBefore={<Search20Regular />}
              value={keywordText}
              onChange={(_, d) => setKeywordText(d.value)}
            />
          </Field>
          {searchable.length ? (
            <ChecklistDialog
              title="Search Columns"
              trigger={{ icon: <TextBulletListSquareSearch20Regular />, label: 'Search Columns' }}
              items={searchable.map((c) => ({ id: c.id, label: c.label }))}
              checked={searchFields}
              onSave={setSearchFields}
              resetTo={defaultSearchFields(columns as Column<unknown>[])}
            />
          ) : null}
          <Tooltip content={t('Refresh')} relationship="label">
            <Button appearance="subtle" icon={<ArrowClockwise20Regular />} onClick={() => void refetch()} />
          </Tooltip>
          <Switch label={t('Auto refresh')} checked={autoRefresh} onChange={(_, d) => setAutoRefresh(d.checked)} />
          <Tooltip content={t('Select mode')} relationship="label">
            <ToggleButton
              appearance="subtle"
              icon={<CheckboxChecked20Regular />}
              checked={selectMode}
              onClick={() => {
                if (selectMode) clearSelection();
                setSelectMode(!selectMode);
              }}
            />
          </Tooltip>
          {selectMode ? (
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <Tooltip
                  content={t(selected.size ? 'Export selected rows' : 'Please select some rows first')}
                  relationship="description"
                >
                  <Button appearance="subtle" icon={<ArrowDownload20Regular />} disabledFocusable={selected.size === 0}>
                    {t('Export')}
                  </Button>
                </Tooltip>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  <MenuItem onClick={() => exportAs('csv')}>CSV</MenuItem>
                  <MenuItem onClick={() => exportAs('json')}>JSON</MenuItem>
                </MenuList>
              </MenuPopover>
            </Menu>
          ) : null}
          <ChecklistDialog
            title="Columns"
            trigger={{ icon: <ColumnTriple20Regular />, label: 'Columns' }}
            items={columns.map((c) => ({ id: c.id, label: c.label }))}
            checked={columns.filter((c) => visibility[c.id] !== false).map((c) => c.id)}
            onChange={(ids) => setVisibility(Object.fromEntries(columns.map((c) => [c.id, ids.includes(c.id)])))}
          />
          <Tooltip content={t(fullscreen ? 'Exit fullscreen' : 'Fullscreen')} relationship="label">
            <Button
              appearance="subtle"
              icon={fullscreen ? <FullScreenMinimize20Regular /> : <FullScreenMaximize20Regular />}
              onClick={() => setFullscreen(!fullscreen)}
            />
          </Tooltip>
        </div>
      </div>

      {Object.keys(activeFilters).length ? (
        <TagGroup
          className={styles.tags}
          aria-label={t('Filters')}
          onDismiss={(_, d) => {
            const column = columns.find((c) => c.id === d.value)!;
            setFilter(column.id, emptyFilterInput(column as Column<unknown>));
          }}
        >
          {columns
            .filter((c) => activeFilters[c.id])
            .map((c) => (
              <Tag key={c.id} value={c.id} size="small" dismissible dismissIcon={{ 'aria-label': t('Clear') }}>
                {filterSummary(c as Column<unknown>, filterInputs[c.id], t)}
              </Tag>
            ))}
        </TagGroup>
      ) : null}

      <ProgressBar
        className={mergeClasses(styles.progress, !list.isFetching && styles.progressIdle)}
        thickness="medium"
        aria-hidden={!list.isFetching}
      />
      <div
        ref={scrollRef}
        className={mergeClasses(styles.scroll, fullscreen ? styles.scrollFill : virtual && styles.scrollBounded)}
      >
        <Table
          className={styles.table}
          size="small"
          sortable
          aria-label={t(resource.title)}
          aria-busy={list.isFetching}
        >
          <TableHeader className={styles.head}>
            <TableRow>
              {selectMode ? (
                <TableSelectionCell
                  type="checkbox"
                  checked={allPageSelected ? true : somePageSelected ? 'mixed' : false}
                  onClick={table.getToggleAllPageRowsSelectedHandler()}
                  checkboxIndicator={{ 'aria-label': t('Select all rows') }}
                />
              ) : null}
              {visibleLeafColumns.map((tc) => {
                if (tc.id === OPERATIONS_COLUMN) {
                  return (
                    <TableHeaderCell
                      key={tc.id}
                      sortable={false}
                      className={mergeClasses(styles.headerCell, styles.stickyEnd)}
                    >
                      {t('Operations')}
                    </TableHeaderCell>
                  );
                }
                const c = (tc.columnDef.meta as { column: Column<T> }).column;
                const sorted = tc.getIsSorted();
                return (
                  <TableHeaderCell
                    key={tc.id}
                    className={styles.headerCell}
                    style={c.width ? { minWidth: c.width } : undefined}
                    sortable={c.sortable}
                    sortDirection={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    // On the label button only: a click on the filter button beside it must not sort.
                    button={{
                      className: styles.headerButton,
                      onClick: c.sortable ? tc.getToggleSortingHandler() : undefined,
                    }}
                    // Beside the label button, not in it: help and filter are controls of their own.
                    aside={
                      c.filter || c.help
                        ? {
                            className: styles.headerAside,
                            children: (
                              <>
                                {c.help ? <ColumnHelp label={t(c.label)} text={t(c.help)} /> : null}
                                {c.filter ? (
                                  <FilterPopover
                                    column={c as Column<unknown>}
                                    input={filterInputs[c.id]}
                                    active={Boolean(activeFilters[c.id])}
                                    onChange={(input) => setFilter(c.id, input)}
                                  />
                                ) : null}
                              </>
                            ),
                          }
                        : undefined
                    }
                  >
                    {t(c.label)}
                  </TableHeaderCell>
                );
              })}
            </TableRow>
          </TableHeader>
          <TableBody>
            <BodyRows
              rows={tableRows}
              virtual={virtual}
              scrollRef={scrollRef}
              selection={rowSelection}
              selectMode={selectMode}
              columns={bodyColumns}
              rowActions={resource.rowActions}
              ctx={ctx}
              env={cellEnv}
            />
            {tableRows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={colSpan} className={styles.empty}>
                  {list.isPending || catchingUp ? <Spinner size="small" label={t('Loading...')} /> : t('No result')}
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </div>

      <TablePagination
        page={page}
        pageSize={pageSize}
        pageCount={pageCount}
        total={total}
        onPage={setPage}
        onPageSize={(size) => {
          setPageSize(size);
          setPage(1);
        }}
      />
    </section>
  );
}

interface BodyRowsProps<T> {
  rows: Row<T>[];
  virtual: boolean;
  scrollRef: RefObject<HTMLDivElement | null>;
  selection: RowSelectionState;
  selectMode: boolean;
  columns: (Column<T> | null)[];
  rowActions: RowAction<T>[];
  ctx: ActionContext<T>;
  env: CellEnv;
}

/**
 * The body's rows, all of them or (long pages) the ones in view. Its own component so that a
 * scroll, which moves the virtual window, re-renders this list and not the toolbar and header.
 */
function BodyRowsImpl<T>({ rows, virtual, scrollRef, selection, selectMode, ...rowProps }: BodyRowsProps<T>) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT_ESTIMATE,
    overscan: 12,
    enabled: virtual,
  });
  const items = virtual ? virtualizer.getVirtualItems() : null;
  const paddingTop = items?.length ? items[0].start : 0;
  const paddingBottom = items?.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const shown: { row: Row<T>; index?: number }[] = items
    ? items.map((i) => ({ row: rows[i.index], index: i.index }))
    : rows.map((row) => ({ row }));
  return (
    <>
      {paddingTop > 0 ? <tr aria-hidden style={{ height: paddingTop }} /> : null}
      {shown.map(({ row, index }) => (
        <BodyRow
          key={row.id}
          row={row}
          isSelected={selectMode && Boolean(selection[row.id])}
          selectMode={selectMode}
          index={index}
          measure={virtual ? virtualizer.measureElement : undefined}
          {...rowProps}
        />
      ))}
      {paddingBottom > 0 ? <tr aria-hidden style={{ height: paddingBottom }} /> : null}
    </>
  );
}
const BodyRows = memo(BodyRowsImpl) as typeof BodyRowsImpl;

interface BodyRowProps<T> {
  row: Row<T>;
  isSelected: boolean;
  selectMode: boolean;
  /** The visible columns in order; null stands for the operations column. */
  columns: (Column<T> | null)[];
  rowActions: RowAction<T>[];
  ctx: ActionContext<T>;
  env: CellEnv;
  /** Long pages: the row's place in the list and the virtualiser's measuring ref. */
  index?: number;
  measure?: (el: Element | null) => void;
}

/** One body row: plain elements (see `bodyRow`), each cell drawn by `renderCell`. */
function BodyRowImpl<T>({
  row,
  isSelected,
  selectMode,
  columns,
  rowActions,
  ctx,
  env,
  index,
  measure,
}: BodyRowProps<T>) {
  const styles = useStyles();
  const item = row.original;
  return (
    <tr ref={measure} data-index={index} className={mergeClasses(styles.bodyRow, isSelected && styles.bodyRowSelected)}>
      {selectMode ? (
        <TableSelectionCell
          type="checkbox"
          checked={isSelected}
          onClick={row.getToggleSelectedHandler()}
          checkboxIndicator={{ 'aria-label': env.t('Select row') }}
        />
      ) : null}
      {columns.map((column) =>
        column === null ? (
          <td key={OPERATIONS_COLUMN} data-pinned className={mergeClasses(styles.cell, styles.stickyEnd)}>
            <div className={styles.operations}>
              {rowActions.map((a, i) => (
                <RowActionButton key={`${a.label}-${i}`} action={a} row={item} ctx={ctx} />
              ))}
            </div>
          </td>
        ) : (
          <td key={column.id} className={styles.cell}>
            {renderCell(column, item, env)}
          </td>
        ),
      )}
    </tr>
  );
}

// Memoised on the row's data, not TanStack's row object (new whenever the page's data changes):
// an auto-refresh that brings the same rows back (the query keeps unchanged rows' identity)
// re-renders nothing, and selecting a row re-renders that row only.
const BodyRow = memo(
  BodyRowImpl,
  (a, b) =>
    a.row.original === b.row.original &&
    a.row.id === b.row.id &&
    a.isSelected === b.isSelected &&
    a.selectMode === b.selectMode &&
    a.columns === b.columns &&
    a.rowActions === b.rowActions &&
    a.ctx === b.ctx &&
    a.env === b.env &&
    a.index === b.index &&
    a.measure === b.measure,
) as typeof BodyRowImpl;
