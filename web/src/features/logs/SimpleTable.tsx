import {
  makeStyles,
  mergeClasses,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  wrap: {
    maxHeight: '60vh',
    overflow: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  head: { position: 'sticky', top: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground2 },
  headCell: { fontWeight: tokens.fontWeightSemibold },
  group: {
    borderLeft: `1px solid ${tokens.colorNeutralStroke2}`,
    '& .fui-TableHeaderCell__button': { justifyContent: 'center' },
  },
  groupStart: { borderLeft: `1px solid ${tokens.colorNeutralStroke2}` },
  // Header cells lay their text out in a flex box, body cells as text.
  number: {
    textAlign: 'right',
    fontVariantNumeric: 'tabular-nums',
    '& .fui-TableHeaderCell__button': { justifyContent: 'flex-end' },
  },
  center: { textAlign: 'center', '& .fui-TableHeaderCell__button': { justifyContent: 'center' } },
  nowrap: { whiteSpace: 'nowrap' },
  empty: { textAlign: 'center', color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalXL },
  footer: { backgroundColor: tokens.colorNeutralBackground2, fontWeight: tokens.fontWeightSemibold },
});

export interface SimpleColumn<T> {
  /** Header text (English, translated here). */
  label: string;
  cell(row: T): ReactNode;
  align?: 'number' | 'center';
  /** Keeps short codes (agent names) on one line. */
  nowrap?: boolean;
  /** A header above several columns (the platform of the agent stat). */
  group?: string;
}

function alignClass(styles: ReturnType<typeof useStyles>, align: SimpleColumn<unknown>['align']): string | undefined {
  return align === 'number' ? styles.number : align === 'center' ? styles.center : undefined;
}

/** A small read-only table for dialog contents; 'No result' when there are no rows. */
export function SimpleTable<T>({
  columns,
  rows,
  rowKey,
  footer,
  label,
}: {
  columns: SimpleColumn<T>[];
  rows: readonly T[];
  rowKey(row: T, index: number): string | number;
  /** A last row (totals), one cell per column. */
  footer?: ReactNode[];
  label: string;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const groups: { label: string; span: number; start: number }[] = [];
  columns.forEach((c, i) => {
    const last = groups[groups.length - 1];
    if (last && c.group && last.label === c.group) last.span += 1;
    else groups.push({ label: c.group ?? '', span: 1, start: i });
  });
  const grouped = columns.some((c) => c.group);
  const groupStarts = new Set(groups.filter((g) => g.label).map((g) => g.start));
  return (
    <div className={styles.wrap}>
      <Table size="small" aria-label={t(label)}>
        <TableHeader className={styles.head}>
          {grouped ? (
            <TableRow>
              {groups.map((g) => (
                <TableHeaderCell
                  key={`${g.start}-${g.label}`}
                  colSpan={g.span}
                  className={mergeClasses(styles.headCell, g.label ? styles.group : undefined)}
                >
                  {g.label ? t(g.label) : ''}
                </TableHeaderCell>
              ))}
            </TableRow>
          ) : null}
          <TableRow>
            {columns.map((c, i) => (
              <TableHeaderCell
                key={`${c.group ?? ''}-${c.label}`}
                className={mergeClasses(
                  styles.headCell,
                  alignClass(styles, c.align),
                  groupStarts.has(i) ? styles.groupStart : undefined,
                )}
              >
                {t(c.label)}
              </TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length} className={styles.empty}>
                {t('No result')}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row, r) => (
              <TableRow key={rowKey(row, r)}>
                {columns.map((c, i) => (
                  <TableCell
                    key={`${c.group ?? ''}-${c.label}`}
                    className={mergeClasses(
                      alignClass(styles, c.align),
                      c.nowrap ? styles.nowrap : undefined,
                      groupStarts.has(i) ? styles.groupStart : undefined,
                    )}
                  >
                    {c.cell(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
          {footer && rows.length > 0 ? (
            <TableRow className={styles.footer}>
              {footer.map((cell, i) => (
                <TableCell key={i} className={alignClass(styles, columns[i]?.align)}>
                  {cell}
                </TableCell>
              ))}
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
    </div>
  );
}
