import { Badge, Button, makeStyles, mergeClasses, Spinner, Text, Tooltip, tokens } from '@fluentui/react-components';
import { Warning16Filled } from '@fluentui/react-icons';
import { type CalendarCell, DAY_S, HOUR_S } from '@shared/autoCheckSchedule';
import { Weekday } from '@shared/enums';
import { type MaintenanceBand, MaintenanceMode } from '@shared/schemas/maintenance';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageHeader, Panel } from '@/app/PageHeader';
import { pathOf } from '@/app/paths';
import { RefreshButton } from '@/components/display/RefreshButton';
import { useT } from '@/i18n';
import { calendarQuery, FETCH_RULE_FAILED } from './autoCheckApi';
import { WEEKDAYS } from './ruleForm';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  facts: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalL },
  scroll: { overflow: 'auto', maxHeight: '75vh' },
  grid: {
    width: '100%',
    minWidth: '900px',
    tableLayout: 'fixed',
    borderCollapse: 'collapse',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  hidden: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' },
  head: {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    padding: tokens.spacingVerticalXS,
    textAlign: 'center',
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorNeutralBackground3,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  hour: {
    width: '56px',
    verticalAlign: 'top',
    fontWeight: tokens.fontWeightRegular,
    textAlign: 'left',
    padding: `2px ${tokens.spacingHorizontalXS}`,
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    borderTop: `1px solid ${tokens.colorNeutralStroke3}`,
  },
  cell: {
    height: '26px',
    verticalAlign: 'top',
    padding: '2px',
    borderTop: `1px solid ${tokens.colorNeutralStroke3}`,
    borderLeft: `1px solid ${tokens.colorNeutralStroke3}`,
  },
  minute: {
    marginBottom: '2px',
    display: 'flex',
    flexDirection: 'column',
    gap: '1px',
    padding: '2px 4px',
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorBrandBackground2,
    borderLeft: `3px solid ${tokens.colorBrandStroke1}`,
  },
  crowd: {
    backgroundColor: tokens.colorPaletteRedBackground1,
    borderLeft: `3px solid ${tokens.colorPaletteRedBorder2}`,
  },
  crowdNote: {
    display: 'flex',
    alignItems: 'center',
    gap: '2px',
    color: tokens.colorPaletteRedForeground1,
    fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightSemibold,
  },
  time: { fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
  // A maintenance window's share of an hour: striped, amber for pause, grey for silent.
  band: {
    marginBottom: '2px',
    padding: '1px 4px',
    borderRadius: tokens.borderRadiusSmall,
    fontSize: tokens.fontSizeBase100,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForeground1,
  },
  pause: {
    backgroundImage: `repeating-linear-gradient(45deg, ${tokens.colorPaletteYellowBackground2} 0 6px, ${tokens.colorPaletteYellowBackground1} 6px 12px)`,
    borderLeft: `3px solid ${tokens.colorPaletteYellowBorder2}`,
  },
  silent: {
    backgroundImage: `repeating-linear-gradient(45deg, ${tokens.colorNeutralBackground4} 0 6px, ${tokens.colorNeutralBackground2} 6px 12px)`,
    borderLeft: `3px solid ${tokens.colorNeutralStroke1}`,
  },
  rule: {
    justifyContent: 'flex-start',
    minWidth: 0,
    height: 'auto',
    padding: 0,
    fontSize: tokens.fontSizeBase200,
    textAlign: 'left',
    whiteSpace: 'normal',
  },
});

/** 'HH:mm' of minutes into the day (1440 is 24:00). */
const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A maintenance window in one hour cell: its name, mode and the part of the day it holds. */
function BandMark({ band }: { band: MaintenanceBand }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const span = `${clock(band.start)}-${clock(band.end)}`;
  const mode = t(MaintenanceMode.label(band.mode));
  return (
    <div
      className={mergeClasses(styles.band, band.mode === 'pause' ? styles.pause : styles.silent)}
      data-maintenance={band.mode}
      title={`${band.name} · ${mode} · ${span}`}
    >
      {band.name} · {mode}
    </div>
  );
}

/** Where a slot sits on the grid: its weekday column and hour row. */
const placeOf = (cell: CalendarCell) => ({
  day: Math.floor(cell.weekStamp / DAY_S) + 1,
  hour: Math.floor((cell.weekStamp % DAY_S) / HOUR_S),
});

function MinuteSlot({ cell, concurrency }: { cell: CalendarCell; concurrency: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const navigate = useNavigate();
  const crowdText = t(
    'Crowd: {sites} sites start at {time}, {concurrency} run at once: {queued} wait, {waves} rounds',
    {
      sites: cell.site_cnt,
      time: cell.time,
      concurrency,
      queued: cell.queued,
      waves: cell.waves,
    },
  );
  return (
    <div
      className={mergeClasses(styles.minute, cell.crowd && styles.crowd)}
      data-crowd={cell.crowd || undefined}
      data-slot={`${cell.day} ${cell.time}`}
      title={`${t(Weekday.label(cell.day))} ${cell.time}${cell.crowd ? ` · ${crowdText}` : ''}`}
    >
      <span className={styles.time}>{cell.time}</span>
      {cell.rules.map((r) => (
        <Button
          key={r.id}
          appearance="transparent"
          size="small"
          className={styles.rule}
          onClick={() => navigate(pathOf('autoCheckRuleDetail', { ruleID: r.id }))}
        >
          {t(r.site_cnt === 1 ? '{name} · {count} site' : '{name} · {count} sites', {
            name: r.name,
            count: r.site_cnt,
          })}
        </Button>
      ))}
      {cell.crowd ? (
        <Tooltip content={crowdText} relationship="description">
          <span className={styles.crowdNote}>
            <Warning16Filled />
            {t('Crowd: {queued} wait, {waves} rounds', { queued: cell.queued, waves: cell.waves })}
          </span>
        </Tooltip>
      ) : null}
    </div>
  );
}

/**
 * '/auto-checks/calendar' (beyond the spec, issue 14): a week, Monday to Sunday by 24 hours in the
 * configured zone, of every enabled rule's slots. Slots of one minute whose sites together exceed
 * the checkers' concurrency are marked as a crowd with the queueing they cause.
 */
export default function ScheduleCalendarPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  // The server weighs the week against the system config's checker concurrency and zone.
  const calendar = useQuery(calendarQuery);
  const zone = calendar.data?.time_zone ?? '';
  const concurrency = calendar.data?.concurrency ?? 0;
  const cells = useMemo(() => calendar.data?.cells ?? [], [calendar.data]);
  const byPlace = useMemo(() => {
    const map = new Map<string, CalendarCell[]>();
    for (const c of cells) {
      const { day, hour } = placeOf(c);
      const key = `${day}:${hour}`;
      map.set(key, [...(map.get(key) ?? []), c]);
    }
    return map;
  }, [cells]);
  const crowds = cells.filter((c) => c.crowd).length;
  const bands = useMemo(() => calendar.data?.maintenance ?? [], [calendar.data]);
  // A band is marked in every hour of its day that it covers.
  const bandsAt = (day: number, hour: number) =>
    bands.filter((b) => b.day === day && b.start < (hour + 1) * 60 && b.end > hour * 60);

  return (
    <div className={styles.page}>
      <PageHeader
        title={t('Schedule Calendar')}
        subtitle={t('Every enabled rule on one week, in {zone}', { zone })}
        actions={<RefreshButton onRefresh={calendar.refetch} busy={calendar.isFetching} labelled />}
      />
      <Panel>
        <div className={styles.facts}>
          <Text>{t('Checkers run {n} sites at once (system config: checker concurrency)', { n: concurrency })}</Text>
          <Badge color={crowds ? 'danger' : 'success'} appearance="tint">
            {t('{count} crowded minutes', { count: crowds })}
          </Badge>
          <Text>{t('{count} slots', { count: cells.length })}</Text>
          {bands.length ? (
            <Badge color="warning" appearance="tint">
              {t('{count} maintenance windows this week', { count: new Set(bands.map((b) => b.window_id)).size })}
            </Badge>
          ) : null}
        </div>
      </Panel>
      <Panel>
        {calendar.isPending ? (
          <Spinner label={t('Loading...')} />
        ) : calendar.isError ? (
          <Text role="alert">{t(FETCH_RULE_FAILED)}</Text>
        ) : cells.length === 0 && bands.length === 0 ? (
          <Text>{t('No Check Time')}</Text>
        ) : (
          <div className={styles.scroll}>
            <table className={styles.grid} aria-label={t('Schedule Calendar')}>
              <thead>
                <tr>
                  <th className={styles.head}>
                    <span className={styles.hidden}>{t('Hour')}</span>
                  </th>
                  {WEEKDAYS.map((d) => (
                    <th key={d} className={styles.head} scope="col">
                      {t(Weekday.label(d))}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {HOURS.map((h) => (
                  <tr key={h}>
                    <th className={styles.hour} scope="row">{`${String(h).padStart(2, '0')}:00`}</th>
                    {WEEKDAYS.map((d) => (
                      <td key={d} className={styles.cell}>
                        {bandsAt(d, h).map((b) => (
                          <BandMark key={`${b.window_id}-${b.start}`} band={b} />
                        ))}
                        {(byPlace.get(`${d}:${h}`) ?? []).map((c) => (
                          <MinuteSlot key={c.weekStamp} cell={c} concurrency={concurrency} />
                        ))}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}
