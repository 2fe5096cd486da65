import { makeStyles, Tooltip, tokens } from '@fluentui/react-components';
import { Info16Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  icon: {
    display: 'inline-flex',
    alignItems: 'center',
    padding: `0 ${tokens.spacingHorizontalXXS}`,
    color: tokens.colorNeutralForeground3,
    cursor: 'help',
    borderRadius: tokens.borderRadiusSmall,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
});

/** An info icon in a column header; its tooltip explains the column (e.g. BusinessID). */
export function ColumnHelp({ label, text }: { label: string; text: string }): ReactNode {
  const styles = useStyles();
  return (
    <Tooltip content={text} relationship="description" withArrow>
      {/* Focusable so keyboard users reach the help too. */}
      <span className={styles.icon} role="img" aria-label={`${label}: ${text}`} tabIndex={0}>
        <Info16Regular />
      </span>
    </Tooltip>
  );
}
