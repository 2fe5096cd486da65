import { describe, expect, it } from 'vitest';
import {
  lastSlotInstant,
  nextRuns,
  slotCron,
  slotOfWeekStamp,
  slotsOf,
  weekCalendar,
  weekOf,
  weekStampAt,
  weekStampOf,
} from './autoCheckSchedule.js';

const iso = (d: Date | null) => d?.toISOString();

describe('week stamps', () => {
  it('count seconds from Monday 00:00: Monday 09:30 is 34200, Sunday 23:59 is 604740', () => {
    expect(weekStampOf(1, '09:30')).toBe(34_200);
    expect(weekStampOf(7, '23:59')).toBe(604_740);
    expect(slotOfWeekStamp(604_740)).toEqual({ day: 7, time: '23:59', weekStamp: 604_740 });
  });

  it('read an instant on the wall clock of the zone', () => {
    // 2026-03-02 is a Monday; Yangon is UTC+06:30.
    expect(weekStampAt(Date.UTC(2026, 2, 2, 3, 0), 'Asia/Yangon')).toBe(34_200);
    expect(weekOf(Date.UTC(2026, 2, 1, 20, 0), 'Asia/Yangon')).toBe('2026-03-02');
    expect(weekOf(Date.UTC(2026, 2, 1, 20, 0), 'UTC')).toBe('2026-02-23');
  });
});

describe('next runs', () => {
  const times = [
    { day: 1 as const, times: ['09:30'] },
    { day: 7 as const, times: ['00:00', '23:59'] },
  ];

  it('lists the slots in time order in the configured zone', () => {
    const runs = nextRuns(times, 'Asia/Yangon', Date.UTC(2026, 2, 1, 0, 0), 4).map(iso);
    expect(runs).toEqual([
      '2026-03-01T17:29:00.000Z', // Sunday 23:59 Yangon
      '2026-03-02T03:00:00.000Z', // Monday 09:30 Yangon
      '2026-03-07T17:30:00.000Z', // Sunday 00:00 Yangon
      '2026-03-08T17:29:00.000Z',
    ]);
  });

  it('follows the zone across a DST change: Monday 09:30 in New York is 14:30 UTC before, 13:30 after', () => {
    const runs = nextRuns([{ day: 1, times: ['09:30'] }], 'America/New_York', Date.UTC(2026, 2, 1), 2).map(iso);
    expect(runs).toEqual(['2026-03-02T14:30:00.000Z', '2026-03-09T13:30:00.000Z']);
  });

  it('finds the latest instant of a slot at or before a moment', () => {
    expect(iso(lastSlotInstant(34_200, 'UTC', Date.UTC(2026, 2, 2, 9, 30)))).toBe('2026-03-02T09:30:00.000Z');
    expect(iso(lastSlotInstant(34_200, 'UTC', Date.UTC(2026, 2, 2, 9, 29)))).toBe('2026-02-23T09:30:00.000Z');
  });

  it('orders a rule slots by week stamp', () => {
    expect(slotsOf(times).map((s) => s.weekStamp)).toEqual([34_200, 518_400, 604_740]);
  });
});

describe('the week calendar', () => {
  const rule = (id: number, sites: number, time: string, enable = true) => ({
    id,
    name: `R${id}`,
    sites: Array.from({ length: sites }, (_, i) => i + 1),
    times: [{ day: 1 as const, times: [time] }],
    enable,
  });

  it('puts rules of the same minute in one cell and marks a crowd when their sites exceed the concurrency', () => {
    const cells = weekCalendar(
      [rule(1, 3, '09:00'), rule(2, 3, '09:00'), rule(3, 2, '10:00'), rule(4, 9, '11:00', false)],
      4,
    );
    expect(cells.map((c) => [c.time, c.site_cnt, c.crowd, c.waves, c.queued])).toEqual([
      ['09:00', 6, true, 2, 2],
      ['10:00', 2, false, 1, 0],
    ]);
    expect(cells[0].rules.map((r) => r.name)).toEqual(['R1', 'R2']);
  });
});

describe('next runs against a plain walk of every slot', () => {
  it('agree for many rules, zones and moments, DST changes included', async () => {
    const { Cron } = await import('croner');
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 40; i++) {
      const zone = ['America/New_York', 'Europe/Berlin', 'Asia/Yangon', 'Australia/Sydney'][i % 4];
      const days = [...new Set([1 + rand(7), 1 + rand(7)])];
      const times = days.map((day) => ({
        day: day as 1,
        times: [
          ...new Set([0, 1, 2].map(() => `${String(rand(24)).padStart(2, '0')}:${String(rand(60)).padStart(2, '0')}`)),
        ].sort(),
      }));
      // Around the spring and autumn changes of both hemispheres, and in between.
      const from = Date.UTC(2026, [2, 3, 9, 10][rand(4)], 1 + rand(28), rand(24), rand(60));
      const plain = slotsOf(times)
        .flatMap((s) => new Cron(slotCron(s), { timezone: zone, mode: '5-part' }).nextRuns(5, new Date(from)))
        .sort((a, b) => a.getTime() - b.getTime())
        .slice(0, 5)
        .map(iso);
      expect(
        nextRuns(times, zone, from, 5).map(iso),
        `${zone} ${new Date(from).toISOString()} ${JSON.stringify(times)}`,
      ).toEqual(plain);
    }
  }, 60_000);
});
