import { makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkCircle16Filled, DismissCircle16Filled } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  yes: { color: tokens.colorPaletteGreenForeground1, verticalAlign: 'middle' },
  no: { color: tokens.colorPaletteRedForeground1, verticalAlign: 'middle' },
});

/** A true/false flag as a green tick or a red cross, named for screen readers. */
export function FlagIcon({ value, label }: { value: boolean; label?: string }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const name = `${label ? `${t(label)}: ` : ''}${value ? t('Yes') : t('No')}`;
  return value ? (
    <CheckmarkCircle16Filled className={styles.yes} role="img" aria-label={name} />
  ) : (
    <DismissCircle16Filled className={styles.no} role="img" aria-label={name} />
  );
}
