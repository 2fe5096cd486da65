// When a maintenance window is in force, and how it lies on the wall-clock week (the schedule
// calendar). Pure rules over a window and the configured zone; instants and wall clocks come from
// the schedule module (croner and the platform's zone data), never from offset arithmetic here.
//
// A weekly window is wall-clock time: 01:00-03:00 lasts three real hours on the night the clocks go
// back and one on the night they go forward; a range whose end is at or before its start (22:00-02:00)
// runs from its weekday into the next day (Sunday's runs into Monday).
import { cronFor, DAY_S, weekStartInstant } from './autoCheckSchedule.js';
import { wallClock } from './zoneClock.js';
import type { WeekdayValue } from './schemas/autoCheck.js';
import type { MaintenanceBand, MaintenanceModeValue } from './schemas/maintenance.js';

export interface WindowRule {
  id: number;
  name: string;
  mode: MaintenanceModeValue;
  enabled: boolean;
  sites: number[] | 'all';
  kind: 'once' | 'weekly';
  start_at?: number | null;
  end_at?: number | null;
  days?: readonly number[] | null;
  start_time?: string | null;
  end_time?: string | null;
}

const MINUTES_A_DAY = DAY_S / 60;
const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
};
const previousDay = (day: number) => ((day + 5) % 7) + 1;
const nextDay = (day: number) => (day % 7) + 1;

export function appliesToSite(w: Pick<WindowRule, 'sites'>, siteId: number): boolean {
  return w.sites === 'all' || w.sites.includes(siteId);
}

/** Whether the window is in force at `at` (ms), on the wall clock of `zone`. */
export function windowCovers(w: WindowRule, at: number, zone: string): boolean {
  if (!w.enabled) return false;
  if (w.kind === 'once')
    return typeof w.start_at === 'number' && typeof w.end_at === 'number' && w.start_at <= at && at < w.end_at;
  if (!w.days?.length || !w.start_time || !w.end_time) return false;
  const clock = wallClock(at, zone);
  const minute = clock.hour * 60 + clock.minute;
  const start = minutesOf(w.start_time);
  const end = minutesOf(w.end_time);
  if (start < end) return w.days.includes(clock.day) && start <= minute && minute < end;
  // Past midnight: the evening of a listed day, or the small hours after one.
  return (w.days.includes(clock.day) && minute >= start) || (w.days.includes(previousDay(clock.day)) && minute < end);
}

/** The windows of `windows` in force for a site at `at`, pause first (it is the stronger). */
export function windowsInForce<W extends WindowRule>(
  windows: readonly W[],
  siteId: number,
  at: number,
  zone: string,
): W[] {
  return windows
    .filter((w) => appliesToSite(w, siteId) && windowCovers(w, at, zone))
    .sort((a, b) => Number(a.mode !== 'pause') - Number(b.mode !== 'pause'));
}

/**
 * Where the window lies on the wall-clock week of `at` (Monday to Sunday in `zone`), split by day:
 * a weekly window every week, a one-off window only where it overlaps that week.
 */
export function windowBands(w: WindowRule, zone: string, at: number): MaintenanceBand[] {
  if (!w.enabled) return [];
  const base = { window_id: w.id, name: w.name, mode: w.mode, kind: w.kind, sites: w.sites };
  const bands: MaintenanceBand[] = [];
  const push = (day: number, start: number, end: number) => {
    if (end > start) bands.push({ ...base, day: day as WeekdayValue, start, end });
  };
  if (w.kind === 'weekly') {
    if (!w.days?.length || !w.start_time || !w.end_time) return [];
    const start = minutesOf(w.start_time);
    const end = minutesOf(w.end_time);
    for (const day of w.days) {
      if (start < end) push(day, start, end);
      else {
        push(day, start, MINUTES_A_DAY);
        push(nextDay(day), 0, end);
      }
    }
  } else {
    if (typeof w.start_at !== 'number' || typeof w.end_at !== 'number') return [];
    const weekStart = weekStartInstant(at, zone);
    // The next Monday 00:00: a week and a day on, back to that week's start (DST weeks are not 7 × 24 h).
    const weekEnd = weekStartInstant(weekStart + 8 * DAY_S * 1000, zone);
    const from = Math.max(w.start_at, weekStart);
    const to = Math.min(w.end_at, weekEnd);
    if (from >= to) return [];
    const a = wallClock(from, zone);
    // The end is exclusive: the minute before it names its last day.
    const b = to >= weekEnd ? { day: 7, hour: 24, minute: 0 } : wallClock(to, zone);
    const startMinute = a.hour * 60 + a.minute;
    const endMinute = b.hour * 60 + b.minute;
    if (a.day === b.day) push(a.day, startMinute, endMinute);
    else {
      push(a.day, startMinute, MINUTES_A_DAY);
      for (let d = a.day + 1; d < b.day; d++) push(d, 0, MINUTES_A_DAY);
      push(b.day, 0, endMinute);
    }
  }
  return bands.sort((x, y) => x.day - y.day || x.start - y.start);
}

/**
 * When the window next begins after `at`, or when the occurrence in force at `at` began; null when
 * it never will again (a past one-off window, a disabled one).
 */
export function nextStart(w: WindowRule, at: number, zone: string): number | null {
  if (!w.enabled) return null;
  if (w.kind === 'once') return typeof w.end_at === 'number' && w.end_at > at ? (w.start_at ?? null) : null;
  if (!w.days?.length || !w.start_time) return null;
  const [h, m] = w.start_time.split(':').map(Number);
  // Cron's day of week: Sunday is 0, ours 7.
  const cron = cronFor(`${m} ${h} * * ${w.days.map((d) => d % 7).join(',')}`, zone);
  if (windowCovers(w, at, zone)) return cron.previousRuns(1, new Date(at + 1000))[0]?.getTime() ?? null;
  return cron.nextRun(new Date(at))?.getTime() ?? null;
}
