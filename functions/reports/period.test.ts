import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_CONFIG } from '../../shared/schemas/systemConfig.js';
import type { ReportsConfig } from '../../shared/schemas/reports.js';
import { maintenanceTime, unionMinutes, windowIntervals } from './maintenanceTime.js';
import { duePeriod, periodDays, periodEnd, wallInstant } from './period.js';

const config = (over: Partial<ReportsConfig> = {}): ReportsConfig => ({ ...DEFAULT_SYSTEM_CONFIG.reports, ...over });
const YANGON = 'Asia/Yangon';
const BERLIN = 'Europe/Berlin';

describe('periods', () => {
  it('ends a day on itself, a week on the Sunday, a month on its last day (leap years too)', () => {
    expect(periodEnd('day', '2026-12-07')).toBe('2026-12-07');
    expect(periodEnd('week', '2026-11-30')).toBe('2026-12-06');
    expect(periodEnd('month', '2026-02-01')).toBe('2026-02-28');
    expect(periodEnd('month', '2028-02-01')).toBe('2028-02-29');
    expect(periodEnd('month', '2026-12-01')).toBe('2026-12-31');
  });

  it('covers its days from local midnight to local midnight, 23 hours on the night the clocks go forward', () => {
    const p = periodDays('day', '2026-03-29', BERLIN);
    expect(p.days).toEqual(['2026-03-29']);
    expect(new Date(p.from).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect((p.to - p.from) / 3_600_000).toBe(23);
    const week = periodDays('week', '2026-11-30', YANGON);
    expect(week.days).toHaveLength(7);
    expect(new Date(week.from).toISOString()).toBe('2026-11-29T17:30:00.000Z');
  });

  it('places a wall-clock time on its instant across a DST change', () => {
    expect(new Date(wallInstant('2026-03-29', 3 * 60, BERLIN)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(wallInstant('2026-10-25', 12 * 60, BERLIN)).toISOString()).toBe('2026-10-25T11:00:00.000Z');
    expect(new Date(wallInstant('2026-12-07', 9 * 60, YANGON)).toISOString()).toBe('2026-12-07T02:30:00.000Z');
  });
});

describe('the schedule', () => {
  // Monday 2026-12-07 in Yangon (UTC+6:30).
  const at = (iso: string) => Date.parse(iso);

  it('makes last week due on the weekday at the time, and keeps it due until the next one', () => {
    const weekly = config({ weekly: { enabled: true, weekday: 1, time: '09:00' } });
    expect(duePeriod('week', weekly, at('2026-12-07T02:29:00Z'), YANGON)).toBeUndefined();
    expect(duePeriod('week', weekly, at('2026-12-07T02:30:00Z'), YANGON)).toEqual({
      start: '2026-11-30',
      dueAt: at('2026-12-07T02:30:00Z'),
    });
    // Sunday evening: still last week's (it was sent on Monday), not this week's.
    expect(duePeriod('week', weekly, at('2026-12-13T15:00:00Z'), YANGON)?.start).toBe('2026-11-30');
    // A Wednesday schedule: before it, no week is due this week.
    const wednesday = config({ weekly: { enabled: true, weekday: 3, time: '09:00' } });
    expect(duePeriod('week', wednesday, at('2026-12-08T10:00:00Z'), YANGON)).toBeUndefined();
    expect(
      duePeriod(
        'week',
        config({ weekly: { enabled: false, weekday: 1, time: '09:00' } }),
        at('2026-12-08T10:00:00Z'),
        YANGON,
      ),
    ).toBeUndefined();
  });

  it('makes yesterday due after the daily time, and last month due after the monthly day', () => {
    const on = config({
      daily: { enabled: true, time: '08:00' },
      monthly: { enabled: true, day: 2, time: '06:00' },
    });
    expect(duePeriod('day', on, at('2026-12-07T01:00:00Z'), YANGON)).toBeUndefined();
    expect(duePeriod('day', on, at('2026-12-07T01:30:00Z'), YANGON)?.start).toBe('2026-12-06');
    expect(duePeriod('month', on, at('2026-12-01T12:00:00Z'), YANGON)).toBeUndefined();
    expect(duePeriod('month', on, at('2026-12-02T00:00:00Z'), YANGON)?.start).toBe('2026-11-01');
    expect(duePeriod('month', on, at('2027-01-05T00:00:00Z'), YANGON)?.start).toBe('2026-12-01');
    expect(duePeriod('day', DEFAULT_SYSTEM_CONFIG.reports, at('2026-12-07T12:00:00Z'), YANGON)).toBeUndefined();
  });
});

describe('maintenance time', () => {
  const week = periodDays('week', '2026-11-30', YANGON);
  const weekly = (days: number[], start: string, end: string, sites: number[] | 'all' = [1]) => ({
    id: 1,
    name: 'w',
    mode: 'pause' as const,
    enabled: true,
    sites,
    kind: 'weekly' as const,
    days,
    start_time: start,
    end_time: end,
  });

  it('counts a weekly window each week day it is on, past midnight included, the Sunday before the period too', () => {
    expect(unionMinutes(windowIntervals(weekly([3], '02:00', '04:00'), week, YANGON))).toBe(120);
    // Sunday 23:00-01:00: the Sunday before the period gives its first hour, the period's Sunday its last hour.
    expect(unionMinutes(windowIntervals(weekly([7], '23:00', '01:00'), week, YANGON))).toBe(120);
  });

  it('clips a one-off window to the period whether or not it is still enabled, and leaves a disabled weekly one out', () => {
    const once = {
      ...weekly([], '00:00', '00:00'),
      kind: 'once' as const,
      enabled: false,
      start_at: week.to - 90 * 60_000,
      end_at: week.to + 600 * 60_000,
    };
    expect(unionMinutes(windowIntervals(once, week, YANGON))).toBe(90);
    expect(windowIntervals({ ...weekly([1, 2], '01:00', '02:00'), enabled: false }, week, YANGON)).toEqual([]);
  });

  it('counts overlapping windows once per site, and only on the sites they cover', () => {
    const a = weekly([1], '01:00', '03:00', [1]);
    const b = { ...weekly([1], '02:00', '04:00', 'all'), id: 2 };
    const { windows, sites } = maintenanceTime([a, b], [1, 2], week, YANGON);
    expect(windows.map((w) => w.minutes)).toEqual([120, 120]);
    expect(sites.get(1)).toBe(180);
    expect(sites.get(2)).toBe(120);
  });

  it('lasts what the wall clock says on the night the clocks go back', () => {
    const berlin = periodDays('week', '2026-10-19', BERLIN);
    // Sunday 2026-10-25 01:00-04:00 in Berlin is four real hours (02:00-03:00 happens twice).
    expect(unionMinutes(windowIntervals(weekly([7], '01:00', '04:00'), berlin, BERLIN))).toBe(240);
  });
});
