import { describe, expect, it } from 'vitest';
import { isTimeZone, wallClock, zoneOffset } from './zoneClock.js';

describe('zone clock', () => {
  it("reads an instant on a zone's wall clock, weekday from Monday", () => {
    // 2026-11-27 (a Friday) 23:40:05 UTC is Saturday 06:10:05 in Yangon (+06:30).
    expect(wallClock(Date.UTC(2026, 10, 27, 23, 40, 5), 'Asia/Yangon')).toEqual({
      year: 2026,
      month: 11,
      date: 28,
      day: 6,
      hour: 6,
      minute: 10,
      second: 5,
    });
    expect(wallClock(Date.UTC(2026, 10, 29, 12), 'UTC').day).toBe(7);
  });

  it("gives the zone's offset on either side of a DST change, whole seconds whatever the milliseconds", () => {
    // Berlin leaves summer time at 01:00 UTC on 2026-10-25.
    expect(zoneOffset(Date.UTC(2026, 9, 25, 0, 59, 59, 999), 'Europe/Berlin')).toBe(2 * 3_600_000);
    expect(zoneOffset(Date.UTC(2026, 9, 25, 1, 0, 0, 1), 'Europe/Berlin')).toBe(3_600_000);
    expect(zoneOffset(Date.UTC(2026, 0, 1), 'America/New_York')).toBe(-5 * 3_600_000);
  });

  it('knows IANA names and UTC, and nothing else', () => {
    expect(isTimeZone('Asia/Yangon')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
