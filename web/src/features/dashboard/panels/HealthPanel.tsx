import { makeStyles, mergeClasses, Tab, TabList, Text, tokens, Tooltip } from '@fluentui/react-components';
import { Process, RunStatus, TestMode } from '@shared/enums';
import { SCORECARD_DAYS, type ScorecardDays, type ScorecardRow } from '@shared/schemas/dashboard';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatDateTime, formatMs } from '@/app/format';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';
import { scorecardQuery } from '../dashboardApi';
import { Panel, percent } from './Panel';

const useStyles = makeStyles({
  scroll: { overflowX: 'auto' },
  grid: { borderCollapse: 'separate', borderSpacing: '3px', fontSize: tokens.fontSizeBase200 },
  tv: { fontSize: tokens.fontSizeBase500, '& button': { minWidth: '110px', padding: '8px 10px' } },
  siteName: { textAlign: 'left', paddingRight: tokens.spacingHorizontalM, whiteSpace: 'nowrap', fontWeight: 600 },
  head: { fontWeight: 400, color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap', padding: '0 4px' },
  cell: {
    minWidth: '74px',
    padding: '4px 6px',
    borderRadius: tokens.borderRadiusMedium,
    border: 'none',
    cursor: 'pointer',
    textAlign: 'left',
    lineHeight: 1.25,
    color: tokens.colorNeutralForeground1,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  pass: { backgroundColor: tokens.colorPaletteGreenBackground2 },
  flaky: { backgroundColor: tokens.colorPaletteYellowBackground2 },
  fail: { backgroundColor: tokens.colorPaletteRedBackground2 },
  none: { backgroundColor: tokens.colorNeutralBackground4, cursor: 'default' },
  rate: { display: 'block', fontWeight: 600 },
  flake: { display: 'block', color: tokens.colorNeutralForeground3 },
});

/** A cell's colour: its last result, yellow when it passed but some runs were flaky or slow. */
function tone(row: ScorecardRow): 'pass' | 'flaky' | 'fail' {
  if (row.last_status === RunStatus.values.Failed) return 'fail';
  return row.flaky > 0 || row.degraded > 0 ? 'flaky' : 'pass';
}

/**
 * Sites × (process, mode), each cell coloured by its last result with its pass and flake rates
 * over 7/30/90 days; a cell opens its subtasks. On the wall screen, sites with a failing cell first.
 */
export function HealthPanel({ wall, refetchInterval }: { wall?: boolean; refetchInterval?: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const navigate = useNavigate();
  const [days, setDays] = useState<ScorecardDays>(7);
  const query = useQuery(scorecardQuery(days, refetchInterval));
  const tools = (
    <TabList
      size="small"
      selectedValue={String(days)}
      onTabSelect={(_, d) => setDays(Number(d.value) as ScorecardDays)}
      aria-label={t('Days')}
    >
      {SCORECARD_DAYS.map((d) => (
        <Tab key={d} value={String(d)}>
          {t('{n} days', { n: d })}
        </Tab>
      ))}
    </TabList>
  );
  return (
    <Panel
      title="Health"
      query={query}
      wide
      tools={tools}
      isEmpty={(d) => d.result.length === 0}
      emptyText="No checks in this period yet"
    >
      {({ result }) => {
        const columns = [...new Set(result.map((r) => `${r.process}-${r.mode}`))]
          .map((k) => k.split('-').map(Number) as [number, number])
          .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const sites = new Map<number, { name: string; cells: Map<string, ScorecardRow> }>();
        for (const r of result) {
          const site = sites.get(r.site_id) ?? { name: r.site_name, cells: new Map() };
          site.cells.set(`${r.process}-${r.mode}`, r);
          sites.set(r.site_id, site);
        }
        const failing = (s: { cells: Map<string, ScorecardRow> }) =>
          [...s.cells.values()].filter((c) => c.last_status === RunStatus.values.Failed).length;
        const rows = [...sites].sort(
          ([, a], [, b]) => (wall ? failing(b) - failing(a) : 0) || a.name.localeCompare(b.name),
        );
        return (
          <div className={styles.scroll}>
            <table className={mergeClasses(styles.grid, wall && styles.tv)}>
              <thead>
                <tr>
                  <th className={styles.head}>{t('Site')}</th>
                  {columns.map(([p, m]) => (
                    <th key={`${p}-${m}`} className={styles.head} scope="col">
                      {t(Process.label(p as never))}
                      <br />
                      {TestMode.label(m as never)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map(([siteId, site]) => (
                  <tr key={siteId}>
                    <th scope="row" className={styles.siteName}>
                      {site.name}
                    </th>
                    {columns.map(([p, m]) => {
                      const row = site.cells.get(`${p}-${m}`);
                      if (!row) return <td key={`${p}-${m}`} className={mergeClasses(styles.cell, styles.none)} />;
                      const label = `${site.name} · ${t(Process.label(p as never))} (${TestMode.label(m as never)})`;
                      return (
                        <td key={`${p}-${m}`} style={{ padding: 0 }}>
                          <Tooltip
                            relationship="description"
                            content={`${label}: ${row.passed}/${row.runs} ${t('passed')}, ${row.flaky} ${t('flaky')}, ${row.degraded} ${t('slow')}; p50 ${formatMs(row.p50_ms)} ms, p95 ${formatMs(row.p95_ms)} ms; ${t('Last')}: ${t(RunStatus.label(row.last_status))} ${formatDateTime(row.last_at)}`}
                          >
                            <button
                              type="button"
                              aria-label={label}
                              className={mergeClasses(styles.cell, styles[tone(row)])}
                              onClick={() => navigate(`${pathOf('subtasks')}?site_id=${siteId}&process=${p}&mode=${m}`)}
                            >
                              <Text className={styles.rate}>{percent(row.pass_rate)}</Text>
                              <Text className={styles.flake}>
                                {t('flaky')} {percent(row.flake_rate)}
                              </Text>
                            </button>
                          </Tooltip>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      }}
    </Panel>
  );
}
