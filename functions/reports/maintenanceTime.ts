// How long maintenance windows were in force during a report's period, per window and per site
// (overlapping windows counted once). A weekly window is wall-clock time of the zone, so each
// occurrence is placed with wallInstant (a DST night's 01:00-03:00 lasts what the clock says).

import { addDays } from '../../shared/calendarDay.js';
import { appliesToSite, type WindowRule } from '../../shared/maintenanceWindows.js';
import { type PeriodDays, wallInstant } from './period.js';

export interface Interval {
  from: number;
  to: number;
}

const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
};
/** 1 (Monday) to 7 (Sunday) of a calendar day. */
const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/**
 * The instants a window was in force within the period. A one-off window counts whether or not it is
 * enabled now: one that ended is switched off by the service (its retirement), and its time happened.
 * A weekly window counts only while enabled: the report cannot know when one was switched off.
 */
export function windowIntervals(w: WindowRule, p: Pick<PeriodDays, 'days' | 'from' | 'to'>, zone: string): Interval[] {
  const clip = (from: number, to: number): Interval[] => {
    const a = Math.max(from, p.from);
    const b = Math.min(to, p.to);
    return b > a ? [{ from: a, to: b }] : [];
  };
  if (w.kind === 'once')
    return typeof w.start_at === 'number' && typeof w.end_at === 'number' ? clip(w.start_at, w.end_at) : [];
  if (!w.enabled || !w.days?.length || !w.start_time || !w.end_time) return [];
  const start = minutesOf(w.start_time);
  const end = minutesOf(w.end_time);
  // The day before the period too: its occurrence may run past midnight into the first day.
  return [addDays(p.days[0], -1), ...p.days].flatMap((day) => {
    if (!w.days?.includes(weekdayOf(day))) return [];
    const from = wallInstant(day, start, zone);
    const to = start < end ? wallInstant(day, end, zone) : wallInstant(addDays(day, 1), end, zone);
    return clip(from, to);
  });
}

/** Whole minutes the intervals cover, overlaps once. */
export function unionMinutes(intervals: Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.from - b.from);
  let total = 0;
  let current: Interval | undefined;
  for (const i of sorted) {
    if (current && i.from <= current.to) current.to = Math.max(current.to, i.to);
    else {
      if (current) total += current.to - current.from;
      current = { ...i };
    }
  }
  if (current) total += current.to - current.from;
  return Math.round(total / 60_000);
}

/** Per window its minutes in the period, and per site the minutes any window covered it. */
export function maintenanceTime<W extends WindowRule>(
  windows: readonly W[],
  siteIds: readonly number[],
  p: Pick<PeriodDays, 'days' | 'from' | 'to'>,
  zone: string,
): { windows: { window: W; minutes: number }[]; sites: Map<number, number> } {
  const spans = windows
    .map((window) => ({ window, intervals: windowIntervals(window, p, zone) }))
    .filter((s) => s.intervals.length);
  const sites = new Map(
    siteIds.map((id) => [
      id,
      unionMinutes(spans.filter((s) => appliesToSite(s.window, id)).flatMap((s) => s.intervals)),
    ]),
  );
  return { windows: spans.map((s) => ({ window: s.window, minutes: unionMinutes(s.intervals) })), sites };
}
