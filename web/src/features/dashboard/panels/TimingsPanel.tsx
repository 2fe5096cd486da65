import { LineChart, type LineChartPoints } from '@fluentui/react-charts';
import { Dropdown, Option, Tab, TabList } from '@fluentui/react-components';
import { Process } from '@shared/enums';
import {
  SCORECARD_DAYS,
  type ScorecardDays,
  TIMINGS_OPENING_DAYS,
  TIMINGS_SITES_DAYS,
  timingsOpeningSite,
} from '@shared/schemas/dashboard';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { scorecardQuery, timingsQuery } from '../dashboardApi';
import { Panel } from './Panel';

/** p50 or p95 per process over time for one chosen site (the sites offered are the scorecard's). */
export function TimingsPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
  const sites = useQuery(scorecardQuery(TIMINGS_SITES_DAYS, refetchInterval));
  const siteList = [...new Map((sites.data?.result ?? []).map((r) => [r.site_id, r.site_name]))];
  const [chosen, setChosen] = useState<number | undefined>();
  const siteId = chosen ?? timingsOpeningSite(sites.data?.result ?? []);
  const [days, setDays] = useState<ScorecardDays>(TIMINGS_OPENING_DAYS);
  const [quantile, setQuantile] = useState<'p95_ms' | 'p50_ms'>('p95_ms');
  const timings = useQuery({ ...timingsQuery(siteId ?? 0, days, refetchInterval), enabled: siteId !== undefined });
  // Without a site there is nothing to ask for: the panel shows the scorecard's state instead.
  const query = siteId === undefined ? { ...sites, data: sites.data ? { result: [] } : undefined } : timings;
  const tools = (
    <>
      <Dropdown
        size="small"
        aria-label={t('Site')}
        value={siteList.find(([id]) => id === siteId)?.[1] ?? ''}
        selectedOptions={siteId === undefined ? [] : [String(siteId)]}
        onOptionSelect={(_, d) => setChosen(Number(d.optionValue))}
      >
        {siteList.map(([id, name]) => (
          <Option key={id} value={String(id)}>
            {name}
          </Option>
        ))}
      </Dropdown>
      <TabList size="small" selectedValue={quantile} onTabSelect={(_, d) => setQuantile(d.value as typeof quantile)}>
        <Tab value="p50_ms">p50</Tab>
        <Tab value="p95_ms">p95</Tab>
      </TabList>
      <TabList
        size="small"
        selectedValue={String(days)}
        onTabSelect={(_, d) => setDays(Number(d.value) as ScorecardDays)}
      >
        {SCORECARD_DAYS.map((d) => (
          <Tab key={d} value={String(d)}>
            {t('{n} days', { n: d })}
          </Tab>
        ))}
      </TabList>
    </>
  );
  return (
    <Panel
      title="Timings"
      query={query}
      tools={tools}
      // Only passes are timed: a site whose checks all failed in the window has days but no line.
      isEmpty={(d) => d.result.every((p) => p[quantile] === null)}
      emptyText="No timed passes in this period yet"
    >
      {({ result }) => {
        const byProcess = new Map<number, LineChartPoints>();
        for (const p of result) {
          const value = p[quantile];
          if (value === null) continue;
          const line = byProcess.get(p.process) ?? { legend: t(Process.label(p.process)), data: [] };
          line.data.push({ x: new Date(`${p.date}T12:00:00`), y: value });
          byProcess.set(p.process, line);
        }
        return (
          <LineChart
            data={{ chartTitle: t('Timings'), lineChartData: [...byProcess.values()] }}
            height={260}
            yAxisTitle="ms"
          />
        );
      }}
    </Panel>
  );
}
