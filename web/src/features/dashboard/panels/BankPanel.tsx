import { DataVizPalette, DonutChart, getColorFromToken, VerticalBarChart } from '@fluentui/react-charts';
import { type BadgeProps, makeStyles, Text, tokens } from '@fluentui/react-components';
import { BankAccountStatus } from '@shared/enums';
import type { BankAccountStatusValue } from '@shared/schemas/bank';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime, formatMs } from '@/app/format';
import { useT } from '@/i18n';
import { accountColors } from '@/features/bank/BankBadges';
import { bankQuery } from '../dashboardApi';
import { Figure, Panel } from './Panel';

const useStyles = makeStyles({
  figures: { display: 'flex', gap: tokens.spacingHorizontalXL, flexWrap: 'wrap' },
  charts: { display: 'grid', gridTemplateColumns: 'minmax(160px, 1fr) 2fr', gap: tokens.spacingHorizontalL },
});

/**
 * A badge colour's twin in the charts' palette, so an account status's slice in the donut means
 * what its badge does (bank/BankBadges.tsx `accountColors`). The donut fills an arc with its point's
 * own colour only (react-charts 9.3: no default), so every status needs one, as a colour value.
 */
const VIZ_OF_BADGE: Readonly<Partial<Record<NonNullable<BadgeProps['color']>, string>>> = {
  success: DataVizPalette.success,
  warning: DataVizPalette.warning,
  danger: DataVizPalette.error,
  subtle: DataVizPalette.disabled,
};
const statusColor = (status: BankAccountStatusValue): string => {
  const badge = accountColors[status];
  return getColorFromToken((badge && VIZ_OF_BADGE[badge]) ?? DataVizPalette.info);
};

/** Statements are neither good nor bad: the palette's first colour, where the default took its dark red. */
const STATEMENTS_COLOR = getColorFromToken(DataVizPalette.color1);

/** An hour of the configured zone as the bar chart names it: 'MM-DD HH:00'. */
const hourLabel = ({ day, hour }: { day: string; hour: number }) =>
  `${day.slice(5)} ${String(hour).padStart(2, '0')}:00`;

/** Accounts by status, stale accounts, poll lag p95, unreconciled changes and statements per hour (GET /dashboard/bank). */
export function BankPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const query = useQuery(bankQuery(refetchInterval));
  return (
    <Panel
      title="Bank"
      query={query}
      isEmpty={(d) => d.accounts_by_status.every(({ count }) => count === 0)}
      emptyText="No bank accounts yet"
    >
      {(bank) => (
        <>
          <div className={styles.figures}>
            <Figure label="Stale accounts" value={bank.stale.length} tone={bank.stale.length ? 'bad' : 'good'} />
            <Figure label="Poll lag p95" value={`${formatMs(bank.poll_lag_p95_ms)} ms`} />
            <Figure
              label="Unreconciled changes"
              value={bank.unreconciled.count}
              tone={bank.unreconciled.count ? 'bad' : 'good'}
            />
            <Figure label="Statements (24 h)" value={bank.statements.total} />
          </div>
          {bank.unreconciled.latest ? (
            <Text size={200}>
              {t('Latest unreconciled')}: #{bank.unreconciled.latest.account_id} {bank.unreconciled.latest.amount} ·{' '}
              {formatDateTime(bank.unreconciled.latest.created_at)}
            </Text>
          ) : null}
          <div className={styles.charts}>
            <DonutChart
              data={{
                chartTitle: t('Accounts by status'),
                // Only the statuses some account has: an empty one is no slice, only a legend entry.
                chartData: bank.accounts_by_status
                  .filter(({ count }) => count > 0)
                  .map(({ status, count }) => ({
                    legend: t(BankAccountStatus.label(status)),
                    data: count,
                    color: statusColor(status),
                  })),
              }}
              innerRadius={40}
              height={200}
            />
            <VerticalBarChart
              chartTitle={t('Statements per hour')}
              data={bank.statements.per_hour.map((h) => ({ x: hourLabel(h), y: h.count, color: STATEMENTS_COLOR }))}
              height={200}
              hideLegend
            />
          </div>
        </>
      )}
    </Panel>
  );
}
