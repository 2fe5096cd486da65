import { addDays, dayOf } from '@shared/calendarDay';
import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { displayTimeZone } from '@/app/format';
import { useT } from '@/i18n';
import { heatmapQuery, scorecardQuery } from '../dashboardApi';
import { Panel } from './Panel';
import { SiteDayHeatmap } from './SiteDayHeatmap';

const DAYS = 90;

/** Sites × the last 90 days, each day coloured by its failure share; a day opens that day's subtasks. */
export function HistoryPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
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
        return <SiteDayHeatmap heatmap={result} days={days} siteName={siteName} zone={zone} title={t('History')} />;
      }}
    </Panel>
  );
}
