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
  ArrowDownload20Regular,
  CheckboxChecked20Regular,
  ColumnTriple20Regular,
  FullScreenMaximize20Regular,
  FullScreenMinimize20Regular,
  Search20Regular,
  TextBulletListSquareSearch20Regular,
} from '@fluentui/react-icons';
import type { Filter } from '@shared/listQuery';
import { useCanWrite } from '@/app/auth';
import { RefreshButton } from '@/components/display/RefreshButton';
import { type ColumnDef, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type ReactNode, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { type CellEnv, useCellClasses } from './CellContent';
import { ChecklistDialog } from './ChecklistDialog';
import { ColumnHelp } from './ColumnHelp';
import { emptyFilterInput, FilterPopover } from './FilterPopover';
import { filterSummary } from './filterSummary';
import { TableActionButton } from './TableActions';
import { TablePagination } from './TablePagination';
import type { Column, Resource } from './types';
import { useExport } from './useExport';
import { useFullscreen } from './useFullscreen';
import { useList } from './useList';
import { useListState } from './useListState';
import { type ControlledSelection, useSelection } from './useSelection';
import { VIRTUALIZE_AFTER } from './useVirtualRows';
import { BodyRows, OPERATIONS_COLUMN, useRowStyles } from './TableBodyRows';
import { defaultSearchFields, useTableSettings } from './useTableSettings';

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
  empty: {
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXL} 0`,
    color: tokens.colorNeutralForeground3,
  },
});

export interface ResourceTableProps<T> {
  resource: Resource<T>;
  /** Filters the screen fixes (e.g. the sub-account of a detail page); the user does not see or change them. */
  baseFilters?: Record<string, Filter>;
  /** Extra toolbar content after the resource's actions. */
  toolbar?: ReactNode;
  /** A selection the screen holds (a picker): select mode is always on and cannot be left. */
  selection?: ControlledSelection<T>;
}

/** Any list screen: a resource's columns over its list call, with every common table feature of spec section 2. */
export function ResourceTable<T>({ resource, baseFilters, toolbar, selection }: ResourceTableProps<T>) {
  const t = useT();
  const styles = useStyles();
  const rowStyles = useRowStyles();
  const columns = resource.columns;
  // A viewer gets the reads only: write actions are not offered, switches and edits do not move.
  const readOnly = !useCanWrite();
  const actions = useMemo(() => resource.actions.filter((a) => !(readOnly && a.write)), [resource, readOnly]);
  const rowActions = useMemo(() => resource.rowActions.filter((a) => !(readOnly && a.write)), [resource, readOnly]);
  const { visibility, setVisibility, searchFields, setSearchFields } = useTableSettings(resource.name, columns);

  const listState = useListState({ resource, searchFields, baseFilters });
  const { query, page, pageSize, filterInputs, activeFilters, setFilter } = listState;
  const [autoRefresh, setAutoRefresh] = useState(false);
  const [fullscreen, setFullscreen] = useFullscreen();

  const list = useList<T>(resource, query, { autoRefresh });
  // A new page renders in a background (interruptible) pass, so a long page never blocks typing or
  // scrolling for the whole render; the toolbar and the previous page stay live meanwhile, and the
  // rows and the pager switch together.
  const shown = useDeferredValue(list.data);
  const catchingUp = shown !== list.data;
  const shownRows = shown?.result ?? NO_ROWS;
  const total = shown?.total_count ?? 0;
  // A partial total (the server stopped at its read budget) is a lower bound: a full page may have a next one.
  const searched = shown?.total_exact === false ? (shown.searched ?? 0) : undefined;
  const countedPages = pageSize === 0 ? 1 : Math.max(1, Math.ceil(total / pageSize));
  const pageCount =
    searched !== undefined && pageSize > 0 && shownRows.length === pageSize
      ? Math.max(countedPages, page + 1)
      : countedPages;

  const refetch = list.refetch;
  // ---- table model (TanStack): visibility, sorting and selection are controlled here, rows come from the server.
  const rowKey = useCallback((row: T) => String(resource.rowId(row)), [resource]);
  const { selectMode, toggleSelectMode, selected, rowSelection, onRowSelectionChange, ctx } = useSelection({
    rowKey,
    pageRows: shownRows,
    initialSelectMode: resource.selectable,
    refetch,
    controlled: selection,
  });
  const exportRows = useExport(resource.name, columns, visibility);

  const columnDefs = useMemo<ColumnDef<T>[]>(() => {
    const defs: ColumnDef<T>[] = columns.map((c) => ({
      id: c.id,
      accessorFn: (row: T) => c.value(row),
      enableSorting: c.sortable,
      enableHiding: true,
      meta: { column: c },
    }));
    if (rowActions.length) {
      defs.push({ id: OPERATIONS_COLUMN, enableSorting: false, enableHiding: false });
    }
    return defs;
  }, [columns, rowActions.length]);

  const classes = useCellClasses();
  const cellEnv: CellEnv = useMemo(() => ({ t, classes, onSaved: refetch, readOnly }), [t, classes, refetch, readOnly]);

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
      sorting: listState.sorting,
      columnVisibility: visibility,
      rowSelection,
    },
    onSortingChange: listState.setSorting,
    onRowSelectionChange,
  });

  // Long pages (page size All) render only the rows in view, in a box of bounded height.
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRows = table.getRowModel().rows;
  const virtual = tableRows.length > VIRTUALIZE_AFTER;

  const visibleLeafColumns = table.getVisibleLeafColumns();
  // The body's columns in order (null: the operations column, always last), from the same state the
  // header's columns come from; a new list only when visibility changes, so memoised rows stay put.
  const hasRowActions = rowActions.length > 0;
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
          {actions.map((a, i) => (
            <TableActionButton key={`${a.label}-${i}`} action={a} ctx={ctx} />
          ))}
          {toolbar}
        </div>
        <div className={styles.tools}>
          <Field
            className={styles.search}
            validationState={listState.keywordProblem ? 'warning' : 'none'}
            validationMessage={listState.keywordProblem ? t(listState.keywordProblem) : undefined}
          >
            <Input
              type="search"
              aria-label={t('Search')}
              placeholder={t('Search')}
              contentBefore={<Search20Regular />}
              value={listState.keywordText}
              onChange={(_, d) => listState.setKeywordText(d.value)}
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
          <RefreshButton onRefresh={refetch} />
          <Switch label={t('Auto refresh')} checked={autoRefresh} onChange={(_, d) => setAutoRefresh(d.checked)} />
          {selection ? null : (
            <Tooltip content={t('Select mode')} relationship="label">
              <ToggleButton
                appearance="subtle"
                icon={<CheckboxChecked20Regular />}
                checked={selectMode}
                onClick={toggleSelectMode}
              />
            </Tooltip>
          )}
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
                  <MenuItem onClick={() => exportRows([...selected.values()], 'csv')}>CSV</MenuItem>
                  <MenuItem onClick={() => exportRows([...selected.values()], 'json')}>JSON</MenuItem>
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
                      className={mergeClasses(styles.headerCell, rowStyles.stickyEnd)}
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
              scrollRef={scrollRef}
              selection={rowSelection}
              selectMode={selectMode}
              columns={bodyColumns}
              rowActions={rowActions}
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
        searched={searched}
        onPage={listState.setPage}
        onPageSize={listState.setPageSize}
      />
    </section>
  );
}
