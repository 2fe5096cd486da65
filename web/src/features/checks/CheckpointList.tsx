import { Badge, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Process, TestMode } from '@shared/enums';
import type { Checkpoints } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0, padding: 0 },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, listStyle: 'none' },
  name: { minWidth: '140px' },
  empty: { color: tokens.colorNeutralForeground3 },
});

/** The points a task checks, each with its test modes (read-only). */
export function CheckpointList({ points }: { points: Checkpoints['points'] }): ReactNode {
  const t = useT();
  const styles = useStyles();
  if (!points.length) return <Text className={styles.empty}>{t('No checkpoint')}</Text>;
  return (
    <ul className={styles.list}>
      {points.map((p) => (
        <li key={p.process} className={styles.row}>
          <Text className={styles.name}>{t(Process.label(p.process))}</Text>
          {p.modes.map((m) => (
            <Badge key={m} appearance="outline" color="brand" size="small">
              {TestMode.label(m)}
            </Badge>
          ))}
        </li>
      ))}
    </ul>
  );
}
