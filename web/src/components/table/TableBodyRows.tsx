// The table body: one plain row per record, all of them or (long pages) the ones in view.
import { makeStyles, mergeClasses, TableSelectionCell, tokens } from '@fluentui/react-components';
import type { Row, RowSelectionState } from '@tanstack/react-table';
import { memo, type RefObject } from 'react';
import { type CellEnv, renderCell } from './CellContent';
import { RowActionButton } from './TableActions';
import type { ActionContext, Column, RowAction } from './types';
import { useVirtualRows } from './useVirtualRows';

/** Column id of the row buttons, always last. */
export const OPERATIONS_COLUMN = '__operations';

export const useRowStyles = makeStyles({
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

interface BodyRowsProps<T> {
  rows: Row<T>[];
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
function BodyRowsImpl<T>({ rows, scrollRef, selection, selectMode, ...rowProps }: BodyRowsProps<T>) {
  const { shown, paddingTop, paddingBottom, measure } = useVirtualRows(rows, scrollRef);
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
          measure={measure}
          {...rowProps}
        />
      ))}
      {paddingBottom > 0 ? <tr aria-hidden style={{ height: paddingBottom }} /> : null}
    </>
  );
}
export const BodyRows = memo(BodyRowsImpl) as typeof BodyRowsImpl;

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
  const styles = useRowStyles();
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
