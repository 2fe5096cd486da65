import {
  Card,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { UseQueryResult } from '@tanstack/react-query';
import { Component, type ReactNode } from 'react';
import { formatDateTime } from '@/app/format';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, flexGrow: 1 },
  wide: { gridColumn: '1 / -1' },
  empty: { color: tokens.colorNeutralForeground3, padding: `${tokens.spacingVerticalL} 0` },
  asOf: { color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
});

/** The time of day of an epoch ms in the display zone ('HH:mm:ss'). */
const clockOf = (ms: number) => formatDateTime(ms).split(' ')[1] ?? '';
/** When a dashboard answer's figures were read (dashboardApi.ts `Aged`), if it says. */
const asOfOf = (data: unknown): number | undefined =>
  typeof data === 'object' && data !== null && typeof (data as { asOf?: unknown }).asOf === 'number'
    ? (data as { asOf: number }).asOf
    : undefined;

/** A chart that throws (a browser without some SVG measure) costs its panel, never the page. */
class PanelBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * A dashboard panel: its title and tools, then the loading, error, empty or data state of the one
 * query it shows; every panel reads alike and none holds up another.
 */
export function Panel<T>({
  title,
  query,
  isEmpty,
  tools,
  wide,
  emptyText = 'No data yet',
  children,
}: {
  title: string;
  query: Pick<UseQueryResult<T>, 'data' | 'isPending' | 'isError'>;
  isEmpty: (data: T) => boolean;
  tools?: ReactNode;
  wide?: boolean;
  emptyText?: string;
  children: (data: T) => ReactNode;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const asOf = asOfOf(query.data);
  const failed = (
    <MessageBar intent="error">
      <MessageBarBody>{t('Could not load this panel.')}</MessageBarBody>
    </MessageBar>
  );
  let body: ReactNode;
  if (query.isPending)
    body = (
      <Skeleton aria-label={t('Loading')}>
        <SkeletonItem size={16} />
        <SkeletonItem size={16} />
        <SkeletonItem size={16} />
      </Skeleton>
    );
  else if (query.isError || query.data === undefined) body = failed;
  else if (isEmpty(query.data)) body = <Text className={styles.empty}>{t(emptyText)}</Text>;
  else body = <PanelBoundary fallback={failed}>{children(query.data)}</PanelBoundary>;
  return (
    <Card className={mergeClasses(styles.card, wide && styles.wide)} aria-label={t(title)} role="region">
      <div className={styles.head}>
        <h2 className={styles.title}>{t(title)}</h2>
        {asOf !== undefined && (
          <Text size={200} className={styles.asOf}>
            {t('as of {time}', { time: clockOf(asOf) })}
          </Text>
        )}
        {tools}
      </div>
      {body}
    </Card>
  );
}

/** A big figure with its caption, for the bank and delivery panels. */
export function Figure({ label, value, tone }: { label: string; value: ReactNode; tone?: 'bad' | 'good' }): ReactNode {
  const t = useT();
  const color =
    tone === 'bad'
      ? tokens.colorPaletteRedForeground1
      : tone === 'good'
        ? tokens.colorPaletteGreenForeground1
        : tokens.colorNeutralForeground1;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', minWidth: 110 }}>
      <Text size={700} weight="semibold" style={{ color }}>
        {value}
      </Text>
      <Text size={200} style={{ color: tokens.colorNeutralForeground3 }}>
        {t(label)}
      </Text>
    </div>
  );
}

export const percent = (rate: number | null | undefined): string =>
  rate === null || rate === undefined ? '—' : `${Math.round(rate * 1000) / 10}%`;
