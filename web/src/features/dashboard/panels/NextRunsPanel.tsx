import { Badge, makeStyles, Text, tokens } from '@fluentui/react-components';
import { nextSlotInstant, weekOf } from '@shared/autoCheckSchedule';
import { wallClock } from '@shared/zoneClock';
import type { MaintenanceBand } from '@shared/schemas/maintenance';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/app/format';
import { calendarQuery } from '@/features/autoCheck/autoCheckApi';
import { useT } from '@/i18n';
import { Panel } from './Panel';

const DAY_MS = 86_400_000;

const useStyles = makeStyles({
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  item: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'baseline', flexWrap: 'wrap' },
  when: { fontVariantNumeric: 'tabular-nums', minWidth: '150px', fontWeight: 600 },
});

/**
 * The maintenance windows on the zone's wall clock at `at`, from the calendar's bands of the week
 * that began at `weekStart`: a weekly band recurs every week, a one-off band is of that week alone
 * (a slot past Sunday midnight is in the next week).
 */
function windowsAt(bands: readonly MaintenanceBand[], at: number, zone: string, weekStart: number): MaintenanceBand[] {
  const clock = wallClock(at, zone);
  const minute = clock.hour * 60 + clock.minute;
  const sameWeek = weekOf(at, zone) === weekOf(weekStart, zone);
  return bands.filter(
    (b) => (sameWeek || b.kind === 'weekly') && b.day === clock.day && b.start <= minute && minute < b.end,
  );
}

/**
 * The next 24 h of rule slots, from the schedule calendar; a slot with more sites than the checkers
 * run at once is flagged, and so is one a maintenance window covers (pause: its sites are skipped).
 */
export function NextRunsPanel({ refetchInterval }: { refetchInterval?: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const query = useQuery({ ...calendarQuery, refetchInterval });
  const now = Date.now();
  const zone = query.data?.time_zone ?? 'UTC';
  const bands = query.data?.maintenance ?? [];
  const upcoming = (query.data?.cells ?? [])
    .map((cell) => ({ cell, at: nextSlotInstant(cell.weekStamp, query.data!.time_zone, now)?.getTime() }))
    .filter((s): s is { cell: (typeof s)['cell']; at: number } => s.at !== undefined && s.at - now <= DAY_MS)
    .sort((a, b) => a.at - b.at);
  return (
    <Panel
      title="Next runs"
      query={{ ...query, data: query.data ? upcoming : undefined }}
      isEmpty={(d) => d.length === 0}
      emptyText="No rule runs in the next 24 hours"
    >
      {(slots) => (
        <ul className={styles.list}>
          {slots.slice(0, 12).map(({ cell, at }) => (
            <li key={cell.weekStamp} className={styles.item}>
              <Text className={styles.when}>{formatDateTime(at)}</Text>
              <Text>{cell.rules.map((r) => r.name).join(', ')}</Text>
              <Text size={200}>{t('Sites: {n}', { n: cell.site_cnt })}</Text>
              {cell.crowd ? (
                <Badge color="warning" appearance="tint">
                  {t('Crowded: {n} wait', { n: cell.queued })}
                </Badge>
              ) : null}
              {windowsAt(bands, at, zone, query.data?.week_start ?? now).map((w) => (
                <Badge key={w.window_id} color={w.mode === 'pause' ? 'warning' : 'informative'} appearance="outline">
                  {t('Maintenance: {name}', { name: w.name })}
                </Badge>
              ))}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
