// When a rule's times happen: next-run instants, week stamps and the week calendar, for the
// API (next_run), the schedulers (functions/autoCheck/scheduler) and the web (overview, calendar).
//
// A rule's times are wall-clock times in the configured IANA zone. Instants come from croner,
// which reads the platform's zone data (Intl): no offset or DST arithmetic is written here.
// A wall time that a DST change skips runs when croner says (the next existing minute); one that
// happens twice runs once.
//
// Week: Monday 00:00 to Sunday 24:00 in the zone (weekdays 1-7 are Monday to Sunday, spec section
// 3); a week stamp is seconds since that Monday 00:00 (spec section 9: a day is 86400 s, an hour
// 3600 s), so Monday 09:30 is 34200 and Sunday 23:59 is 604740.
import { Cron } from 'croner';
import type { CalendarCell, RuleTimes, Slot, WeekdayValue } from './schemas/autoCheck.js';
import { wallClock } from './zoneClock.js';

export type { CalendarCell, Slot };

export const DAY_S = 86_400;
export const HOUR_S = 3_600;
export const WEEK_S = 7 * DAY_S;

export function weekStampOf(day: number, time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (day - 1) * DAY_S + h * HOUR_S + m * 60;
}

export function slotOfWeekStamp(weekStamp: number): Slot {
  const day = (Math.floor(weekStamp / DAY_S) + 1) as WeekdayValue;
  const inDay = weekStamp % DAY_S;
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(Math.floor(inDay / HOUR_S))}:${pad(Math.floor((inDay % HOUR_S) / 60))}`;
  return { day, time, weekStamp };
}

/** Every (weekday, time) slot of a rule, in week order. */
export function slotsOf(times: RuleTimes): Slot[] {
  return times
    .flatMap((d) => d.times.map((time) => ({ day: d.day, time, weekStamp: weekStampOf(d.day, time) })))
    .sort((a, b) => a.weekStamp - b.weekStamp);
}

/** Cron's day of week: 0 or 7 is Sunday; ours is 7. Monday is 1 in both. */
const cronDay = (day: number) => day % 7;

/** A 5-field cron pattern for one slot: 'm h * * dow'. */
export function slotCron(slot: Pick<Slot, 'day' | 'time'>): string {
  const [h, m] = slot.time.split(':').map(Number);
  return `${m} ${h} * * ${cronDay(slot.day)}`;
}

/**
 * The rule's times as few cron patterns as possible: one per distinct time of day, with the
 * days it happens on ('30 9 * * 1,3,5'). Fewer patterns, fewer walks for next-run lists.
 */
export function rulePatterns(times: RuleTimes): string[] {
  const daysByTime = new Map<string, number[]>();
  for (const d of times) for (const t of d.times) daysByTime.set(t, [...(daysByTime.get(t) ?? []), cronDay(d.day)]);
  return [...daysByTime.entries()].map(([time, days]) => {
    const [h, m] = time.split(':').map(Number);
    return `${m} ${h} * * ${[...new Set(days)].sort((a, b) => a - b).join(',')}`;
  });
}

// Parsed patterns are kept: the API lists next runs of many rules, and the calendar recomputes
// on every render; a rule's patterns repeat across rules (09:00 on weekdays is common).
const crons = new Map<string, Cron>();
/** A 5-field pattern's runs in `zone` (kept: patterns repeat across rules and windows). */
export function cronFor(pattern: string, zone: string): Cron {
  const key = `${zone} ${pattern}`;
  let cron = crons.get(key);
  if (!cron) {
    if (crons.size > 5_000) crons.clear();
    cron = new Cron(pattern, { timezone: zone, mode: '5-part' });
    crons.set(key, cron);
  }
  return cron;
}

/** The next `n` instants (after `from`, exclusive) at which the rule's slots happen in `zone`. */
export function nextRuns(times: RuleTimes, zone: string, from: Date | number, n: number): Date[] {
  const slots = slotsOf(times);
  if (!slots.length || n < 1) return [];
  const start = new Date(from);
  // Only the slots that come next on the wall clock can hold the next runs: croner is asked for
  // those few (and one more, for a DST gap that pushes a slot past its neighbour), not for all.
  const now = weekStampAt(start, zone);
  const ahead = (s: Slot) => (s.weekStamp - now - 1 + WEEK_S) % WEEK_S;
  const candidates = [...slots].sort((a, b) => ahead(a) - ahead(b)).slice(0, n + 1);
  // With more slots than runs asked, each candidate's first instant is enough.
  const perSlot = slots.length > n ? 1 : Math.ceil(n / slots.length) + 1;
  const all = candidates.flatMap((slot) => cronFor(slotCron(slot), zone).nextRuns(perSlot, start));
  return all.sort((a, b) => a.getTime() - b.getTime()).slice(0, n);
}

/** The next instant of the rule after `from`; null when it has no times. */
export function nextRun(times: RuleTimes, zone: string, from: Date | number): Date | null {
  return nextRuns(times, zone, from, 1)[0] ?? null;
}

/** The next instant of one slot after `from` (exclusive), in `zone`. */
export function nextSlotInstant(weekStamp: number, zone: string, from: Date | number): Date | null {
  return cronFor(slotCron(slotOfWeekStamp(weekStamp)), zone).nextRun(new Date(from));
}

/** The latest instant of one slot at or before `at`, in `zone`. */
export function lastSlotInstant(weekStamp: number, zone: string, at: Date | number): Date | null {
  // previousRuns is exclusive of its reference; a second later makes `at` itself count.
  return cronFor(slotCron(slotOfWeekStamp(weekStamp)), zone).previousRuns(1, new Date(Number(at) + 1000))[0] ?? null;
}

/** Every slot instant of a rule in (from, to], in order, with its week stamp. */
export function slotInstantsBetween(
  times: RuleTimes,
  zone: string,
  from: Date | number,
  to: Date | number,
): { weekStamp: number; at: Date }[] {
  const end = Number(to);
  const out: { weekStamp: number; at: Date }[] = [];
  for (const slot of slotsOf(times)) {
    const cron = cronFor(slotCron(slot), zone);
    let at = cron.nextRun(new Date(from));
    while (at && at.getTime() <= end) {
      out.push({ weekStamp: slot.weekStamp, at });
      at = cron.nextRun(at);
    }
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** Seconds into the week of an instant, on the wall clock of `zone`. */
export function weekStampAt(at: Date | number, zone: string): number {
  const w = wallClock(at, zone);
  return (w.day - 1) * DAY_S + w.hour * HOUR_S + w.minute * 60;
}

/**
 * The calendar date ('YYYY-MM-DD') of the Monday that starts the week of an instant in `zone`:
 * with a slot's week stamp, it names one firing of one slot (the idempotency key).
 */
export function weekOf(at: Date | number, zone: string): string {
  const w = wallClock(at, zone);
  // Civil-date arithmetic on a UTC calendar: no zone offsets are involved.
  const monday = new Date(Date.UTC(w.year, w.month - 1, w.date - (w.day - 1)));
  return monday.toISOString().slice(0, 10);
}

/**
 * The instant a wall-clock date and time ('YYYY-MM-DD', 'HH:mm') names in `zone`, from croner:
 * a time a DST change skips is its next existing minute; one that happens twice is its first.
 */
export function wallClockInstant(date: string, time: string, zone: string): number | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const civil = new Date(Date.UTC(year, month - 1, day));
  // Not a calendar date (2026-13-01, 2026-02-30), or not a time of day.
  if (civil.getUTCMonth() !== month - 1 || civil.getUTCDate() !== day) return null;
  if (Number(t[1]) > 23 || Number(t[2]) > 59) return null;
  // From two days before in UTC: every zone's offset is within ±14 h, so the first run is that date's.
  const from = new Date(Date.UTC(year, month - 1, day) - 2 * DAY_S * 1000);
  const run = new Cron(`${Number(t[2])} ${Number(t[1])} ${day} ${month} *`, { timezone: zone, mode: '5-part' }).nextRun(
    from,
  );
  return run ? run.getTime() : null;
}

/** The instant the week of `at` began (Monday 00:00 on the wall clock of `zone`). */
export function weekStartInstant(at: Date | number, zone: string): number {
  return (lastSlotInstant(0, zone, at) as Date).getTime();
}

// ---- The week calendar ---------------------------------------------------------------------

export interface CalendarRule {
  id: number;
  name: string;
  sites: number[];
  times: RuleTimes;
  enable: boolean;
}

/**
 * Every enabled rule's slots on the wall-clock week (Monday to Sunday), one cell per minute that
 * has slots, in week order. `concurrency` is the checkers' concurrency.
 */
export function weekCalendar(rules: readonly CalendarRule[], concurrency: number): CalendarCell[] {
  const cells = new Map<number, CalendarCell>();
  for (const rule of rules) {
    if (!rule.enable) continue;
    for (const slot of slotsOf(rule.times)) {
      let cell = cells.get(slot.weekStamp);
      if (!cell) {
        cell = { ...slot, rules: [], site_cnt: 0, crowd: false, waves: 0, queued: 0 };
        cells.set(slot.weekStamp, cell);
      }
      cell.rules.push({ id: rule.id, name: rule.name, site_cnt: rule.sites.length });
      cell.site_cnt += rule.sites.length;
    }
  }
  const limit = Math.max(1, concurrency);
  for (const cell of cells.values()) {
    cell.waves = Math.max(1, Math.ceil(cell.site_cnt / limit));
    cell.queued = Math.max(0, cell.site_cnt - limit);
    cell.crowd = cell.queued > 0;
  }
  return [...cells.values()].sort((a, b) => a.weekStamp - b.weekStamp);
}
