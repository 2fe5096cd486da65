import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
    columnGap: tokens.spacingHorizontalXXL,
    rowGap: tokens.spacingVerticalL,
    margin: 0,
  },
  item: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  wide: { gridColumn: '1 / -1' },
  term: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, fontWeight: tokens.fontWeightSemibold, wordBreak: 'break-word', minHeight: '20px' },
});

export interface Fact {
  label: string;
  value: ReactNode;
  /** Takes a whole row (remarks, long texts). */
  wide?: boolean;
}

/** A summary as label/value pairs in a responsive grid (operation and task detail). */
export function Facts({ items }: { items: Fact[] }): ReactNode {
  const styles = useStyles();
  return (
    <dl className={styles.list}>
      {items.map((f) => (
        <div key={f.label} className={mergeClasses(styles.item, f.wide && styles.wide)}>
          <dt className={styles.term}>{f.label}</dt>
          <dd className={styles.value}>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
