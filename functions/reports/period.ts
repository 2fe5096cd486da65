// A report's period as days of the configured zone, and which period a schedule is due to report.
// Pure rules: instants come from shared/calendarDay.ts (the zone's offsets), never from a fixed 24 h.

import { addDays, dayOf, dayStart, daysBetween } from '../../shared/calendarDay.js';
import type { ReportPeriodValue, ReportsConfig } from '../../shared/schemas/reports.js';
import { wallClock, zoneOffset } from '../../shared/zoneClock.js';

export interface PeriodDays {
  period: ReportPeriodValue;
  /** First and last day, both inclusive. */
  start: string;
  end: string;
  /** Every day of the period, oldest first. */
  days: string[];
  /** [from, to): the instants the period covers in the zone. */
  from: number;
  to: number;
}

/** The last day of the period that starts on `start` (a Monday for a week, the 1st for a month). */
export function periodEnd(period: ReportPeriodValue, start: string): string {
  if (period === 'day') return start;
  if (period === 'week') return addDays(start, 6);
  const [y, m] = start.split('-').map(Number);
  // Day 0 of the next month is this month's last.
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export function periodDays(period: ReportPeriodValue, start: string, zone: string): PeriodDays {
  const end = periodEnd(period, start);
  const days = Array.from({ length: daysBetween(start, end) + 1 }, (_, i) => addDays(start, i));
  return { period, start, end, days, from: dayStart(start, zone), to: dayStart(addDays(end, 1), zone) };
}

/** Whether the period has ended at `now` (its last day is over in the zone). */
export const periodEnded = (p: Pick<PeriodDays, 'to'>, now: number): boolean => p.to <= now;

/** The instant a wall-clock time of `day` is in `zone` (twice: the offset at the guess can differ across a DST change). */
export function wallInstant(day: string, minutes: number, zone: string): number {
  const naive = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000;
  const guess = naive - zoneOffset(naive, zone);
  return naive - zoneOffset(guess, zone);
}

const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
};

/**
 * The period a schedule reports at `now`, and the instant it became due: yesterday for the daily
 * report once today's `time` has passed, last week once this week's `weekday` `time` has, last month
 * once this month's `day` `time` has. Undefined when the period's schedule is off or not due yet this
 * day, week or month. Due until the next one: a scheduler that was down at the time still sends it.
 */
export function duePeriod(
  period: ReportPeriodValue,
  config: ReportsConfig,
  now: number,
  zone: string,
): { start: string; dueAt: number } | undefined {
  const today = dayOf(now, zone);
  if (period === 'day') {
    if (!config.daily.enabled) return undefined;
    const dueAt = wallInstant(today, minutesOf(config.daily.time), zone);
    return now >= dueAt ? { start: addDays(today, -1), dueAt } : undefined;
  }
  if (period === 'week') {
    if (!config.weekly.enabled) return undefined;
    const monday = addDays(today, 1 - wallClock(now, zone).day);
    const dueAt = wallInstant(addDays(monday, config.weekly.weekday - 1), minutesOf(config.weekly.time), zone);
    return now >= dueAt ? { start: addDays(monday, -7), dueAt } : undefined;
  }
  if (!config.monthly.enabled) return undefined;
  const first = `${today.slice(0, 8)}01`;
  const dueAt = wallInstant(addDays(first, config.monthly.day - 1), minutesOf(config.monthly.time), zone);
  if (now < dueAt) return undefined;
  const [y, m] = first.split('-').map(Number);
  return { start: new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10), dueAt };
}
