import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/** One column of a report table: its header (English, translated here) and what a row shows under it. */
export interface ReportColumn<T> {
  label: string;
  cell: (row: T) => ReactNode;
  /** Figures: right-aligned, tabular digits. */
  numeric?: boolean;
}

const useStyles = makeStyles({
  table: {
    width: '100%',
    borderCollapse: 'collapse',
    fontSize: tokens.fontSizeBase200,
    fontVariantNumeric: 'tabular-nums',
  },
  th: {
    textAlign: 'left',
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground2,
    borderBottom: `2px solid ${tokens.colorNeutralStroke1}`,
    padding: '4px 8px',
    whiteSpace: 'nowrap',
  },
  td: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, padding: '4px 8px', verticalAlign: 'top' },
  numeric: { textAlign: 'right', whiteSpace: 'nowrap' },
  strong: { fontWeight: tokens.fontWeightSemibold, backgroundColor: tokens.colorNeutralBackground2 },
  // Paper: 186 mm for up to ten columns.
  dense: {
    fontSize: '8pt',
    '& th': { whiteSpace: 'normal', padding: '2px 4px', verticalAlign: 'bottom' },
    '& td': { padding: '2px 4px' },
  },
  group: { breakInside: 'avoid' },
  empty: { color: tokens.colorNeutralForeground3, display: 'block', padding: `${tokens.spacingVerticalS} 0` },
});

/** Consecutive rows of one key together; each row alone without `key`. */
function groupsOf<T>(rows: readonly T[], key?: (row: T) => string | number): T[][] {
  const groups: T[][] = [];
  for (const [i, row] of rows.entries()) {
    const last = groups.at(-1);
    if (key && last && i > 0 && key(rows[i - 1]) === key(row)) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

/**
 * A report's table, drawn from its columns. Plain table markup, so a printed page repeats the
 * header (thead) on every page and never splits a row (the print view's stylesheet).
 */
export function ReportTable<T>({
  label,
  columns,
  rows,
  rowKey,
  strong,
  emptyText,
  dense,
  group,
}: {
  /** The table's accessible name (English, translated here). */
  label: string;
  columns: readonly ReportColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string | number;
  /** Rows drawn as totals. */
  strong?: (row: T) => boolean;
  emptyText: string;
  /** Smaller type and padding, headers wrapping: the printed page. */
  dense?: boolean;
  /** Consecutive rows with one key stay on one printed page (a site's totals and its processes). */
  group?: (row: T) => string | number;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  if (rows.length === 0) return <Text className={styles.empty}>{t(emptyText)}</Text>;
  return (
    <table className={mergeClasses(styles.table, dense && styles.dense)} aria-label={t(label)}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.label} scope="col" className={mergeClasses(styles.th, c.numeric && styles.numeric)}>
              {t(c.label)}
            </th>
          ))}
        </tr>
      </thead>
      {groupsOf(rows, group).map((lines) => (
        <tbody key={rowKey(lines[0], rows.indexOf(lines[0]))} className={styles.group}>
          {lines.map((row) => (
            <tr key={rowKey(row, rows.indexOf(row))} className={strong?.(row) ? styles.strong : undefined}>
              {columns.map((c) => (
                <td key={c.label} className={mergeClasses(styles.td, c.numeric && styles.numeric)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      ))}
    </table>
  );
}
