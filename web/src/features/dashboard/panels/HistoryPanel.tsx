import { HeatMapChart, type HeatMapChartData } from '@fluentui/react-charts';
import { addDays, dayOf, dayStart } from '@shared/calendarDay';
import { heatmapCells } from '@shared/schemas/dashboard';
import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { displayTimeZone } from '@/app/format';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';
import { heatmapQuery, scorecardQuery } from '../dashboardApi';
import { Panel } from './Panel';

/** Buckets of a day's failure share: none, some, many; and days without a run. */
const LEGENDS = ['No runs', 'All passed', 'Some failed', 'Mostly failed'] as const;
/** Each legend's swatch takes the colour of this value on the scale below. */
const LEGEND_VALUES = [-1, 0, 0.25, 0.75];
/** Plain colours: the chart interpolates them, which CSS variables (Fluent tokens) cannot be. */
const COLOURS = ['#e1dfdd', '#54b054', '#f7c948', '#e8743b', '#c50f1f'];
const DAYS = 90;

/** Sites × the last 90 days, each day coloured by its failure share; a day opens that day's subtasks. */
export function HistoryPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  const query = useQuery(heatmapQuery(refetchInterval));
  // Site names come with the scorecard the Health panel reads already (same query key: no second read).
  const names = useQuery(scorecardQuery(7, refetchInterval));
  const zone = displayTimeZone() ?? DEFAULT_SYSTEM_CONFIG.time_zone;
  return (
    <Panel
      title="History"
      query={query}
      wide
      isEmpty={(d) => d.result.sites.length === 0}
      emptyText="No checks in 90 days yet"
    >
      {({ result }) => {
        const siteName = new Map((names.data?.result ?? []).map((r) => [r.site_id, r.site_name]));
        const today = dayOf(Date.now(), zone);
        const days = Array.from({ length: DAYS }, (_, i) => addDays(today, i - (DAYS - 1)));
        const byKey = new Map(heatmapCells(result).map((c) => [`${c.site_id}#${c.date}`, c]));
        const siteIds = result.sites
          .map((s) => s.site_id)
          .sort((a, b) => (siteName.get(a) ?? '').localeCompare(siteName.get(b) ?? ''));
        const groups = new Map<string, HeatMapChartData>(
          LEGENDS.map((legend, i) => [legend, { legend: t(legend), value: LEGEND_VALUES[i], data: [] }]),
        );
        const rows = siteIds.map((siteId) => siteName.get(siteId) ?? `#${siteId}`);
        for (const [row, siteId] of siteIds.entries()) {
          const y = rows[row];
          for (const date of days) {
            const cell = byKey.get(`${siteId}#${date}`);
            if (!cell) {
              groups.get(LEGENDS[0])!.data.push({ x: date.slice(5), y, value: -1, rectText: '' });
              continue;
            }
            const share = cell.runs ? cell.failed / cell.runs : 0;
            const legend = share === 0 ? LEGENDS[1] : share < 0.5 ? LEGENDS[2] : LEGENDS[3];
            const start = dayStart(cell.date, zone);
            groups.get(legend)!.data.push({
              x: date.slice(5),
              y,
              value: share,
              rectText: '',
              descriptionMessage: `${cell.date}: ${cell.runs} ${t('runs')}, ${cell.failed} ${t('failed')}, ${cell.flaky} ${t('flaky')}, ${cell.degraded} ${t('slow')}`,
              onClick: () =>
                navigate(`${pathOf('subtasks')}?site_id=${siteId}&created_at=${start},${start + 86_400_000 - 1}`),
            });
          }
        }
        return (
          <HeatMapChart
            // The chart keeps its cells by row and column in refs set after a render: rows that
            // change under it (the names arriving after the heatmap: '#12' becomes 'Lucky 4D', a
            // site added, a new day) were read from the old refs and threw. New rows, a new chart.
            key={`${days[0]}|${rows.join('|')}`}
            chartTitle={t('History')}
            data={[...groups.values()].filter((g) => g.data.length)}
            domainValuesForColorScale={[-1, 0, 0.001, 0.5, 1]}
            rangeValuesForColorScale={COLOURS}
            height={Math.max(160, 60 + siteIds.length * 24)}
            margins={{ left: 180 }}
            noOfCharsToTruncate={28}
            showYAxisLables
            xAxisTickCount={10}
          />
        );
      }}
    </Panel>
  );
}
