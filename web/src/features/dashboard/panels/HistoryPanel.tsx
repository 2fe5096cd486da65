import { HeatMapChart, type HeatMapChartData } from '@fluentui/react-charts';
import { tokens } from '@fluentui/react-components';
import { dayStart } from '@shared/calendarDay';
import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { displayTimeZone } from '@/app/format';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';
import { heatmapQuery, scorecardQuery } from '../dashboardApi';
import { Panel } from './Panel';

/** Buckets of a day's failure share: none, some, many. */
const LEGENDS = ['All passed', 'Some failed', 'Mostly failed'] as const;

/** Sites × the last 90 days, each day coloured by its failure share; a day opens that day's subtasks. */
export function HistoryPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  const query = useQuery(heatmapQuery(refetchInterval));
  // Site names come with the scorecard the Health panel reads already (same query key: no second read).
  const names = useQuery(scorecardQuery(7, refetchInterval));
  const zone = displayTimeZone() ?? DEFAULT_SYSTEM_CONFIG.time_zone;
  return (
    <Panel title="History" query={query} wide isEmpty={(d) => d.result.length === 0} emptyText="No checks in 90 days yet">
      {({ result }) => {
        const siteName = new Map((names.data?.result ?? []).map((r) => [r.site_id, r.site_name]));
        const groups = new Map<string, HeatMapChartData>(
          LEGENDS.map((legend, i) => [legend, { legend: t(legend), value: i, data: [] }]),
        );
        for (const cell of result) {
          const share = cell.runs ? cell.failed / cell.runs : 0;
          const legend = share === 0 ? LEGENDS[0] : share < 0.5 ? LEGENDS[1] : LEGENDS[2];
          const start = dayStart(cell.date, zone);
          groups.get(legend)!.data.push({
            x: cell.date,
            y: siteName.get(cell.site_id) ?? `#${cell.site_id}`,
            value: share,
            rectText: '',
            descriptionMessage: `${cell.runs} ${t('runs')}, ${cell.failed} ${t('failed')}, ${cell.flaky} ${t('flaky')}, ${cell.degraded} ${t('slow')}`,
            onClick: () =>
              navigate(`${pathOf('subtasks')}?site_id=${cell.site_id}&created_at=${start},${start + 86_400_000 - 1}`),
          });
        }
        const sites = new Set(result.map((c) => c.site_id)).size;
        return (
          <HeatMapChart
            chartTitle={t('History')}
            data={[...groups.values()].filter((g) => g.data.length)}
            domainValuesForColorScale={[0, 0.001, 0.5, 1]}
            rangeValuesForColorScale={[
              tokens.colorPaletteGreenBackground3,
              tokens.colorPaletteYellowBackground3,
              tokens.colorPaletteDarkOrangeBackground3,
              tokens.colorPaletteRedBackground3,
            ]}
            height={Math.max(160, 40 + sites * 26)}
            hideLegend={false}
          />
        );
      }}
    </Panel>
  );
}
