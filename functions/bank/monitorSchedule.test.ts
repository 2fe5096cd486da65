import { describe, expect, it } from 'vitest';
import { duePolls, isDueInstant, rangeEnteredAt, secondOfDay } from './monitorSchedule.js';

const yangon = (hms: string) => Date.parse(`2026-11-23T${hms}+06:30`);

describe('poll instants in the configured time zone', () => {
  it('reads the second of the day in the zone, not in UTC', () => {
    expect(secondOfDay(yangon('10:00:05'), 'Asia/Yangon')).toBe(36005);
    expect(secondOfDay(yangon('10:00:05'), 'UTC')).toBe(3 * 3600 + 30 * 60 + 5);
  });

  it('gives 12 instants at 5 s in 10:00:00-10:01:00 and none at its end', () => {
    const account = { monitor_interval: 5, monitor_range: [[36000, 36060]] as [number, number][] };
    const due = duePolls(account, yangon('09:59:00'), yangon('10:02:00'), 'Asia/Yangon');
    expect(due).toHaveLength(12);
    expect(due[0]).toBe(yangon('10:00:00'));
    expect(due.at(-1)).toBe(yangon('10:00:55'));
    expect(isDueInstant(account, yangon('10:01:00'), 'Asia/Yangon')).toBe(false);
    expect(isDueInstant({ ...account, monitor_interval: 7 }, yangon('10:00:05'), 'Asia/Yangon')).toBe(false);
  });

  it('follows the window boundaries without doubling an instant', () => {
    const account = { monitor_interval: 7, monitor_range: [[0, 86400]] as [number, number][] };
    const a = duePolls(account, yangon('10:00:00'), yangon('10:01:05'), 'Asia/Yangon');
    const b = duePolls(account, yangon('10:01:05'), yangon('10:02:10'), 'Asia/Yangon');
    expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
    for (const t of [...a, ...b]) expect(secondOfDay(t, 'Asia/Yangon') % 7).toBe(0);
  });

  it('says when the current stretch inside a range began', () => {
    const ranges: [number, number][] = [[36000, 39600]];
    expect(rangeEnteredAt(ranges, yangon('10:30:00'), 'Asia/Yangon')).toBe(yangon('10:00:00'));
    expect(rangeEnteredAt(ranges, yangon('11:30:00'), 'Asia/Yangon')).toBeUndefined();
  });
});
