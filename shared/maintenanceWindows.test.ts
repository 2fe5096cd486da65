import { describe, expect, it } from 'vitest';
import { wallClockInstant } from './autoCheckSchedule.js';
import { nextStart, type WindowRule, windowBands, windowCovers, windowsInForce } from './maintenanceWindows.js';

const weekly = (days: number[], start_time: string, end_time: string, over: Partial<WindowRule> = {}): WindowRule => ({
  id: 1,
  name: 'w',
  mode: 'pause',
  enabled: true,
  sites: 'all',
  kind: 'weekly',
  days,
  start_time,
  end_time,
  ...over,
});
const once = (start: string, end: string, over: Partial<WindowRule> = {}): WindowRule => ({
  id: 2,
  name: 'o',
  mode: 'silent',
  enabled: true,
  sites: [5],
  kind: 'once',
  start_at: Date.parse(start),
  end_at: Date.parse(end),
  ...over,
});
const at = (iso: string) => Date.parse(iso);

describe('a weekly maintenance window', () => {
  it('covers its weekdays between its wall-clock times, the end excluded', () => {
    const w = weekly([1, 3], '09:00', '10:30');
    expect(windowCovers(w, at('2026-11-30T09:00:00Z'), 'UTC')).toBe(true); // Monday
    expect(windowCovers(w, at('2026-11-30T10:29:59Z'), 'UTC')).toBe(true);
    expect(windowCovers(w, at('2026-11-30T10:30:00Z'), 'UTC')).toBe(false);
    expect(windowCovers(w, at('2026-12-01T09:30:00Z'), 'UTC')).toBe(false); // Tuesday
    expect(windowCovers(w, at('2026-12-02T09:30:00Z'), 'UTC')).toBe(true); // Wednesday
    expect(windowCovers({ ...w, enabled: false }, at('2026-11-30T09:30:00Z'), 'UTC')).toBe(false);
  });

  it('runs past midnight into the next day, Sunday into Monday', () => {
    const w = weekly([7], '23:00', '01:00');
    expect(windowCovers(w, at('2026-11-29T23:30:00Z'), 'UTC')).toBe(true); // Sunday night
    expect(windowCovers(w, at('2026-11-30T00:30:00Z'), 'UTC')).toBe(true); // Monday, small hours
    expect(windowCovers(w, at('2026-11-30T01:00:00Z'), 'UTC')).toBe(false);
    expect(windowCovers(w, at('2026-11-28T23:30:00Z'), 'UTC')).toBe(false); // Saturday night
    expect(windowCovers(w, at('2026-11-30T23:30:00Z'), 'UTC')).toBe(false); // Monday night
    expect(windowBands(w, 'UTC', at('2026-11-25T00:00:00Z')).map((b) => [b.day, b.start, b.end])).toEqual([
      [1, 0, 60],
      [7, 1380, 1440],
    ]);
  });

  it('reads the wall clock of the configured zone, not UTC', () => {
    const w = weekly([1], '09:00', '10:00');
    // 09:30 in Yangon (UTC+6:30) is 03:00 UTC.
    expect(windowCovers(w, at('2026-11-30T03:00:00Z'), 'Asia/Yangon')).toBe(true);
    expect(windowCovers(w, at('2026-11-30T09:30:00Z'), 'Asia/Yangon')).toBe(false);
  });

  it('lasts one real hour across the night the clocks go forward (Berlin, 29 March 2026)', () => {
    const w = weekly([7], '01:30', '03:30');
    expect(windowCovers(w, at('2026-03-29T00:45:00Z'), 'Europe/Berlin')).toBe(true); // 01:45 CET
    expect(windowCovers(w, at('2026-03-29T01:15:00Z'), 'Europe/Berlin')).toBe(true); // 03:15 CEST
    expect(windowCovers(w, at('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toBe(false); // 03:30 CEST
    expect(windowCovers(w, at('2026-03-29T00:15:00Z'), 'Europe/Berlin')).toBe(false); // 01:15 CET
  });

  it('covers both passes of a repeated hour across the night the clocks go back (Berlin, 25 October 2026)', () => {
    const w = weekly([7], '02:00', '02:30');
    expect(windowCovers(w, at('2026-10-25T00:15:00Z'), 'Europe/Berlin')).toBe(true); // 02:15 CEST
    expect(windowCovers(w, at('2026-10-25T01:15:00Z'), 'Europe/Berlin')).toBe(true); // 02:15 CET
    expect(windowCovers(w, at('2026-10-25T00:45:00Z'), 'Europe/Berlin')).toBe(false); // 02:45 CEST
  });

  it('says when it next begins, or when the occurrence in force began', () => {
    const w = weekly([1], '09:00', '10:00');
    expect(nextStart(w, at('2026-11-29T12:00:00Z'), 'UTC')).toBe(at('2026-11-30T09:00:00Z'));
    expect(nextStart(w, at('2026-11-30T09:30:00Z'), 'UTC')).toBe(at('2026-11-30T09:00:00Z'));
    expect(nextStart(w, at('2026-11-30T10:00:00Z'), 'UTC')).toBe(at('2026-12-07T09:00:00Z'));
    // An occurrence that began on Sunday evening is in force on Monday morning.
    const night = weekly([7], '22:00', '02:00');
    expect(nextStart(night, at('2026-11-30T01:00:00Z'), 'UTC')).toBe(at('2026-11-29T22:00:00Z'));
    // Across the change to summer time, the next start is 09:00 CEST (07:00 UTC).
    expect(nextStart(w, at('2026-03-28T12:00:00Z'), 'Europe/Berlin')).toBe(at('2026-03-30T07:00:00Z'));
  });
});

describe('a one-off maintenance window', () => {
  it('covers the instants from its start to its end, the end excluded', () => {
    const w = once('2026-11-26T10:00:00Z', '2026-11-26T11:00:00Z');
    expect(windowCovers(w, at('2026-11-26T10:00:00Z'), 'UTC')).toBe(true);
    expect(windowCovers(w, at('2026-11-26T10:59:59Z'), 'UTC')).toBe(true);
    expect(windowCovers(w, at('2026-11-26T11:00:00Z'), 'UTC')).toBe(false);
    expect(nextStart(w, at('2026-11-26T12:00:00Z'), 'UTC')).toBeNull();
  });

  it('lies on the days of the week it overlaps, cut at the week', () => {
    const w = once('2026-11-25T22:00:00Z', '2026-11-27T02:00:00Z');
    expect(windowBands(w, 'UTC', at('2026-11-26T00:00:00Z')).map((b) => [b.day, b.start, b.end])).toEqual([
      [3, 1320, 1440],
      [4, 0, 1440],
      [5, 0, 120],
    ]);
    const late = once('2026-11-29T22:00:00Z', '2026-12-01T00:00:00Z');
    expect(windowBands(late, 'UTC', at('2026-11-26T00:00:00Z')).map((b) => [b.day, b.start, b.end])).toEqual([
      [7, 1320, 1440],
    ]);
    expect(windowBands(late, 'UTC', at('2026-11-19T00:00:00Z'))).toEqual([]);
  });
});

describe('windows in force for a site', () => {
  it('names the windows of that site (or of all sites), pause before silent', () => {
    const windows = [
      once('2026-11-26T10:00:00Z', '2026-11-26T11:00:00Z', { id: 3, sites: [5], mode: 'silent' }),
      weekly([4], '10:00', '12:00', { id: 4, sites: 'all', mode: 'pause' }),
      once('2026-11-26T10:00:00Z', '2026-11-26T11:00:00Z', { id: 5, sites: [6], mode: 'pause' }),
    ];
    expect(windowsInForce(windows, 5, at('2026-11-26T10:30:00Z'), 'UTC').map((w) => w.id)).toEqual([4, 3]);
    expect(windowsInForce(windows, 7, at('2026-11-26T11:30:00Z'), 'UTC').map((w) => w.id)).toEqual([4]);
    expect(windowsInForce(windows, 7, at('2026-11-26T12:30:00Z'), 'UTC')).toEqual([]);
  });
});

describe('wall-clock instants in a zone', () => {
  it('reads a date and time on the zone’s wall clock, the first of a repeated hour', () => {
    expect(wallClockInstant('2026-11-30', '09:30', 'Asia/Yangon')).toBe(at('2026-11-30T03:00:00Z'));
    expect(wallClockInstant('2026-10-25', '02:15', 'Europe/Berlin')).toBe(at('2026-10-25T00:15:00Z'));
    expect(wallClockInstant('2026-13-01', '02:15', 'UTC')).toBeNull();
  });
});
