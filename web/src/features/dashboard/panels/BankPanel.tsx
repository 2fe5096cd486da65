import { DonutChart, VerticalBarChart } from '@fluentui/react-charts';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { BankAccountStatus } from '@shared/enums';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime, formatMs } from '@/app/format';
import { useT } from '@/i18n';
import { bankQuery } from '../dashboardApi';
import { Figure, Panel } from './Panel';

const useStyles = makeStyles({
  figures: { display: 'flex', gap: tokens.spacingHorizontalXL, flexWrap: 'wrap' },
  charts: { display: 'grid', gridTemplateColumns: 'minmax(160px, 1fr) 2fr', gap: tokens.spacingHorizontalL },
});

/** Accounts by status, stale accounts, poll lag p95, unreconciled changes and statements per hour (GET /dashboard/bank). */
export function BankPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const query = useQuery(bankQuery(refetchInterval));
  return (
    <Panel
      title="Bank"
      query={query}
      isEmpty={(d) => Object.values(d.accounts_by_status).every((n) => n === 0)}
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
            <Figure label="Statements (24 h)" value={bank.statements.reduce((s, h) => s + h.count, 0)} />
          </div>
          {bank.unreconciled.latest ? (
            <Text size={200}>
              {t('Latest unreconciled')}: #{bank.unreconciled.latest.account_id} {bank.unreconciled.latest.amount} ·{' '}
              {formatDateTime(bank.unreconciled.latest.at)}
            </Text>
          ) : null}
          <div className={styles.charts}>
            <DonutChart
              data={{
                chartTitle: t('Accounts by status'),
                chartData: Object.entries(bank.accounts_by_status).map(([status, n]) => ({
                  legend: t(BankAccountStatus.label(Number(status) as never)),
                  data: n,
                })),
              }}
              innerRadius={40}
              height={200}
            />
            <VerticalBarChart
              chartTitle={t('Statements per hour')}
              data={bank.statements.map((h) => ({ x: new Date(h.hour), y: h.count }))}
              height={200}
              hideLegend
            />
          </div>
        </>
      )}
    </Panel>
  );
}
