import { HeatMapChart, type HeatMapChartData } from '@fluentui/react-charts';
import { dayStart } from '@shared/calendarDay';
import { type Heatmap, heatmapCells } from '@shared/schemas/dashboard';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';

/** Buckets of a day's failure share: none, some, many; and days without a run. */
const LEGENDS = ['No runs', 'All passed', 'Some failed', 'Mostly failed'] as const;
/** Each legend's swatch takes the colour of this value on the scale below. */
const LEGEND_VALUES = [-1, 0, 0.25, 0.75];
/** Plain colours: the chart interpolates them, which CSS variables (Fluent tokens) cannot be. */
const COLOURS = ['#e1dfdd', '#54b054', '#f7c948', '#e8743b', '#c50f1f'];

/**
 * Sites × days, each day coloured by its failure share; a day opens that day's subtasks. The home
 * page's History panel (the last 90 days) and a report's page (its period) both draw it.
 */
export function SiteDayHeatmap({
  heatmap,
  days,
  siteName,
  zone,
  title,
  width,
}: {
  heatmap: Heatmap;
  /** The columns, 'YYYY-MM-DD' oldest first; a day the heatmap lacks shows as 'No runs'. */
  days: readonly string[];
  siteName: ReadonlyMap<number, string>;
  /** The zone `days` are calendar days of (a day's subtasks are opened by its start and end). */
  zone: string;
  title: string;
  /** A fixed width in px (a printed page); the container's width otherwise. */
  width?: number;
}): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  const byKey = new Map(heatmapCells(heatmap).map((c) => [`${c.site_id}#${c.date}`, c]));
  const siteIds = heatmap.sites
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
  // The chart fills its container (350 px tall when that has no height of its own): a row a site.
  const height = Math.max(160, 80 + siteIds.length * 20);
  return (
    <div style={{ height, width }}>
      <HeatMapChart
        // The chart keeps its cells by row and column in refs set after a render: rows that
        // change under it (the names arriving after the heatmap: '#12' becomes 'Lucky 4D', a
        // site added, a new day) were read from the old refs and threw. New rows, a new chart.
        key={`${days[0]}|${rows.join('|')}`}
        chartTitle={title}
        data={[...groups.values()].filter((g) => g.data.length)}
        domainValuesForColorScale={[-1, 0, 0.001, 0.5, 1]}
        rangeValuesForColorScale={COLOURS}
        height={height}
        width={width}
        margins={{ left: 180 }}
        noOfCharsToTruncate={28}
        showYAxisLables
        // The chart orders string axes by first appearance across its legend groups (days jumbled):
        // days oldest first, sites by name from the top (the y axis counts from the bottom).
        xAxisCategoryOrder={days.map((d) => d.slice(5))}
        yAxisCategoryOrder={[...rows].reverse()}
        xAxisTickCount={Math.min(10, days.length)}
      />
    </div>
  );
}
