import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { ErrorCircle24Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    marginBottom: tokens.spacingVerticalL,
  },
  text: { display: 'flex', flexDirection: 'column', flexGrow: 1 },
  sub: { color: tokens.colorNeutralForeground3 },
});

/** Title row of a page: title, optional subtitle, actions on the right. */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.root}>
      <div className={styles.text}>
        <Text as="h1" size={600} weight="semibold" style={{ margin: 0 }}>
          {title}
        </Text>
        {subtitle ? <Text className={styles.sub}>{subtitle}</Text> : null}
      </div>
      {actions}
    </div>
  );
}

const usePanelStyles = makeStyles({
  panel: {
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    padding: tokens.spacingHorizontalXL,
  },
});

/** A white surface on the grey page background. */
export function Panel({
  children,
  className,
  style,
}: {
  children: ReactNode;
  className?: string;
  style?: React.CSSProperties;
}) {
  const styles = usePanelStyles();
  return (
    <section className={className ? `${styles.panel} ${className}` : styles.panel} style={style}>
      {children}
    </section>
  );
}

const useFailedStyles = makeStyles({
  failed: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalXXXL} 0`,
    color: tokens.colorNeutralForeground3,
  },
});

/** A page's content when it could not be loaded: the failure tip, in place of the content. */
export function LoadFailedPanel({ message }: { message: string }) {
  const styles = useFailedStyles();
  return (
    <Panel>
      <div className={styles.failed} role="alert">
        <ErrorCircle24Regular />
        <Text>{message}</Text>
      </div>
    </Panel>
  );
}
