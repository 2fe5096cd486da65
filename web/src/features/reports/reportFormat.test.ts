import { describe, expect, it } from 'vitest';
import { formatDuration, formatMinutes, periodDates } from './reportFormat';

describe("a report's texts", () => {
  it('reads a duration in its largest units, rounding up into the next one', () => {
    expect(formatDuration(null)).toBe('/');
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(59_600)).toBe('1 min');
    expect(formatDuration(12 * 60_000)).toBe('12 min');
    expect(formatDuration(59.6 * 60_000)).toBe('1 h 00 min');
    expect(formatDuration(125 * 60_000)).toBe('2 h 05 min');
    expect(formatDuration(52 * 3_600_000)).toBe('2 d 4 h');
    expect(formatMinutes(0)).toBe('0 min');
    expect(formatMinutes(90)).toBe('1 h 30 min');
  });

  it('names a daily report by its day and longer ones by both ends', () => {
    expect(periodDates({ start: '2026-12-06', end: '2026-12-06' })).toBe('2026-12-06');
    expect(periodDates({ start: '2026-11-30', end: '2026-12-06' })).toBe('2026-11-30 – 2026-12-06');
  });
});
