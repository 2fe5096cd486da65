import { describe, expect, it } from 'vitest';
import { secondOfDay } from '../../shared/zoneClock.js';
import { duePolls, isDueInstant, rangeEnteredAt } from './monitorSchedule.js';

const yangon = (hms: string) => Date.parse(`2026-11-23T${hms}+06:30`);

describe('poll instants in the configured time zone', () => {
  it('reads the second of the day in the zone, not in UTC', () => {
    expect(secondOfDay(yangon('10:00:05'), 'Asia/Yangon')).toBe(36005);
    expect(secondOfDay(yangon('10:00:05'), 'UTC')).toBe(3 * 3600 + 30 * 60 + 5);
  });

  it('gives 12 instants at 5 s in 10:00:00-10:01:00 and none at its end', () => {
    const account = { id: 10, monitor_interval: 5, monitor_range: [[36000, 36060]] as [number, number][] };
    const due = duePolls(account, yangon('09:59:00'), yangon('10:02:00'), 'Asia/Yangon');
    expect(due).toHaveLength(12);
    expect(due[0]).toBe(yangon('10:00:00'));
    expect(due.at(-1)).toBe(yangon('10:00:55'));
    expect(isDueInstant(account, yangon('10:01:00'), 'Asia/Yangon')).toBe(false);
    expect(isDueInstant({ ...account, monitor_interval: 7 }, yangon('10:00:05'), 'Asia/Yangon')).toBe(false);
  });

  it('follows the window boundaries without doubling an instant', () => {
    const account = { id: 14, monitor_interval: 7, monitor_range: [[0, 86400]] as [number, number][] };
    const a = duePolls(account, yangon('10:00:00'), yangon('10:01:05'), 'Asia/Yangon');
    const b = duePolls(account, yangon('10:01:05'), yangon('10:02:10'), 'Asia/Yangon');
    expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
    for (const t of [...a, ...b]) expect(secondOfDay(t, 'Asia/Yangon') % 7).toBe(0);
  });

  it('spreads accounts over their interval by id: 500 at 5 s make 100 polls each second, each every 5 s', () => {
    const all = { monitor_range: [[0, 86400]] as [number, number][] };
    const perSecond = new Map<number, number>();
    for (let id = 1; id <= 500; id++) {
      const due = duePolls({ ...all, id, monitor_interval: 5 }, yangon('10:00:00'), yangon('10:01:00'), 'Asia/Yangon');
      expect(due).toHaveLength(12);
      expect(due.slice(1).map((t, i) => t - (due[i] as number))).toEqual(Array(11).fill(5000));
      expect((due[0] as number) - yangon('10:00:00')).toBe((id % 5) * 1000);
      for (const t of due) perSecond.set(t, (perSecond.get(t) ?? 0) + 1);
    }
    expect(new Set(perSecond.values())).toEqual(new Set([100]));
    expect(perSecond.size).toBe(60);
  });

  it("keeps a range's bounds whatever the phase", () => {
    const account = { id: 12, monitor_interval: 5, monitor_range: [[36000, 36010]] as [number, number][] };
    expect(duePolls(account, yangon('09:59:00'), yangon('10:01:00'), 'Asia/Yangon')).toEqual([
      yangon('10:00:02'),
      yangon('10:00:07'),
    ]);
  });

  it('says when the current stretch inside a range began', () => {
    const ranges: [number, number][] = [[36000, 39600]];
    expect(rangeEnteredAt(ranges, yangon('10:30:00'), 'Asia/Yangon')).toBe(yangon('10:00:00'));
    expect(rangeEnteredAt(ranges, yangon('11:30:00'), 'Asia/Yangon')).toBeUndefined();
  });
});
