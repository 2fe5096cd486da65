// The check rollups the dashboard reads, on the real local engines (dynalite here, DynamoDB Local in
// fidelity): after a mix of results the scorecard, heatmap and timings equal a count over the
// subtask rows, before and after the refresher's roll and across days, a subtask's rollup applied
// twice counts once, and the repair rebuilds the same items.

import { describe, expect, it } from 'vitest';
import { addDays, dayOf } from '../../shared/calendarDay.js';
import { RunStatus } from '../../shared/enums.js';
import {
  type CellStats,
  readCheckHeatmap,
  readCheckPeriod,
  readCheckScorecard,
  readCheckTimings,
  rebuildCheckRollups,
  recordSubtaskRollup,
  rollCheckRollups,
  sharingDayReads,
} from '../../functions/checks/checkRollup.js';
import { type StoredSubtask, checkStore } from '../../functions/checks/store.js';
import { deleteRollup, putRollup, scanRollups } from '../../functions/lib/db/rollups.js';
import { invalidateMaintenanceWindows } from '../../functions/maintenance/service.js';
import { maintenanceStore } from '../../functions/maintenance/store.js';
import { callsDuring, setupDynamo } from './engine.js';

setupDynamo();

const ZONE = 'Asia/Yangon'; // the system config's default zone
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Noon in Yangon: a day's checks end well away from its midnights. */
const NOON = Date.UTC(2026, 10, 20, 5, 30);
const { Done, Failed, Pending } = RunStatus.values;

let nextTask = 1;
/** Ended subtasks written as the engine leaves them; `daysAgo` counts back from NOON. */
async function ended(
  rows: {
    site: number;
    process?: number;
    mode?: number;
    status: number;
    flaky?: boolean;
    degraded?: boolean;
    ms?: number;
    daysAgo?: number;
    ran?: boolean;
  }[],
): Promise<StoredSubtask[]> {
  const task = nextTask++;
  return checkStore().subtasks.createMany(
    rows.map((r, i) => {
      const end = NOON - (r.daysAgo ?? 0) * DAY + i * 1000;
      return {
        task_id: task,
        operation_id: task,
        site_id: r.site,
        process: (r.process ?? 2) as StoredSubtask['process'],
        mode: (r.mode ?? 1) as StoredSubtask['mode'],
        status: r.status as StoredSubtask['status'],
        msg: '',
        start_at: r.ran === false ? null : end - (r.ms ?? 1000),
        end_at: end,
        attempts: r.flaky ? 2 : 1,
        flaky: r.flaky ?? false,
        degraded: r.degraded ?? false,
        duration_ms: r.ran === false ? null : (r.ms ?? 1000),
      };
    }),
  );
}

/** What the scorecard should say, counted over the rows themselves. */
function countOver(rows: StoredSubtask[], from: number, to: number) {
  const cells = new Map<string, Omit<CellStats, 'p50_ms' | 'p95_ms' | 'sketch'>>();
  for (const s of [...rows].sort((a, b) => a.end_at! - b.end_at!)) {
    if (s.start_at === null || (s.status !== Done && s.status !== Failed)) continue;
    const key = `${s.site_id}/${s.process}/${s.mode}`;
    const c = cells.get(key) ?? {
      site_id: s.site_id,
      process: s.process,
      mode: s.mode,
      runs: 0,
      passed: 0,
      failed: 0,
      flaky: 0,
      degraded: 0,
      last_status: null,
      last_at: null,
    };
    c.last_status = s.status;
    c.last_at = s.end_at;
    const day = dayOf(s.end_at!, ZONE);
    if (day >= dayOf(from, ZONE) && day <= dayOf(to, ZONE)) {
      c.runs++;
      if (s.status === Done) c.passed++;
      else c.failed++;
      if (s.flaky) c.flaky++;
      if (s.degraded) c.degraded++;
    }
    cells.set(key, c);
  }
  return [...cells.values()];
}

const sortCells = <T extends { site_id: number; process: number; mode: number }>(cells: T[]) =>
  [...cells].sort((a, b) => a.site_id - b.site_id || a.process - b.process || a.mode - b.mode);
const withoutTimings = (cells: CellStats[]) =>
  sortCells(cells.map(({ p50_ms: _a, p95_ms: _b, sketch: _s, ...c }) => c));

describe('check rollups', () => {
  const site = (n: number) => 9000 + n;
  let rows: StoredSubtask[] = [];

  it('makes the scorecard equal a count over the rows after a mix of results', async () => {
    rows = await ended([
      { site: site(1), status: Done, ms: 1200 },
      { site: site(1), status: Done, ms: 1500, flaky: true },
      { site: site(1), status: Failed },
      { site: site(1), status: Done, ms: 9000, degraded: true },
      { site: site(1), process: 1, mode: 3, status: Done, ms: 800 },
      { site: site(2), status: Failed },
      { site: site(2), status: Done, ms: 2000 },
      // Failed because its login failed: it never ran, so it is not counted.
      { site: site(2), process: 3, status: Failed, ran: false },
      // Still running: not counted either.
      { site: site(2), process: 4, status: Pending, ran: false },
    ]);
    for (const s of rows) await recordSubtaskRollup(s);

    const { cells, rcu } = await readCheckScorecard(7, NOON, [site(1), site(2)]);
    const mine = cells.filter((c) => c.site_id === site(1) || c.site_id === site(2));
    expect(withoutTimings(mine)).toEqual(sortCells(countOver(rows, NOON - 6 * DAY, NOON)));
    expect(mine.find((c) => c.site_id === site(1) && c.process === 2)).toMatchObject({
      runs: 4,
      passed: 3,
      failed: 1,
      flaky: 1,
      degraded: 1,
      last_status: Done,
    });
    expect(rcu).toBeGreaterThan(0);
  });

  it('reads p50 and p95 of the passes within the sketch error', async () => {
    const durations = Array.from({ length: 40 }, (_, i) => 500 + i * 250); // 500 .. 10,250 ms
    const subs = await ended(durations.map((ms) => ({ site: site(3), status: Done, ms })));
    for (const s of subs) await recordSubtaskRollup(s);
    const cell = (await readCheckScorecard(30, NOON, [site(3)])).cells.find((c) => c.site_id === site(3))!;
    const sorted = [...durations].sort((a, b) => a - b);
    for (const [q, read] of [
      [0.5, cell.p50_ms],
      [0.95, cell.p95_ms],
    ] as const) {
      const exact = sorted[Math.ceil(q * sorted.length) - 1];
      expect(Math.abs(read! - exact) / exact).toBeLessThanOrEqual(0.1);
    }
    const timings = await readCheckTimings(site(3), 7, NOON);
    expect(timings.points).toEqual([
      { date: dayOf(NOON, ZONE), process: 2, runs: 40, p50_ms: cell.p50_ms, p95_ms: cell.p95_ms },
    ]);
  });

  it('rolls a window to a new day and takes out the days that left it', async () => {
    const early = await ended([
      { site: site(4), status: Failed, daysAgo: 8 },
      { site: site(4), status: Done, daysAgo: 3, flaky: true },
      { site: site(4), status: Done, daysAgo: 1 },
    ]);
    for (const s of early) await recordSubtaskRollup(s);
    const today = await ended([{ site: site(4), status: Failed }]);
    await recordSubtaskRollup(today[0]);
    const all = [...early, ...today];

    // Before the refresher's roll the days are read from the day items; after it, from the window
    // item through the day before yesterday and the day items since: the same cells.
    for (const rolled of [false, true]) {
      if (rolled) expect(await rollCheckRollups(NOON, [site(4)])).toMatchObject({ windows: 3 });
      for (const days of [7, 30] as const) {
        const cells = (await readCheckScorecard(days, NOON, [site(4)])).cells.filter((c) => c.site_id === site(4));
        expect(withoutTimings(cells), `rolled: ${rolled}`).toEqual(
          sortCells(countOver(all, NOON - (days - 1) * DAY, NOON)),
        );
      }
    }
    // Rolled already: a second roll the same day writes no window.
    expect(await rollCheckRollups(NOON, [site(4)])).toEqual({ windows: 0, heat: 0 });
    // Four days on, with no roll since: the reader takes out the days that left the 7-day window
    // (3 days back), keeping yesterday's and today's.
    const later = NOON + 4 * DAY;
    const cells = (await readCheckScorecard(7, later, [site(4)])).cells.filter((c) => c.site_id === site(4));
    expect(withoutTimings(cells)).toEqual(sortCells(countOver(all, later - 6 * DAY, later)));
    expect(cells[0]).toMatchObject({ runs: 2, failed: 1, last_status: Failed });
  });

  it('gives the heatmap per site and day, in the configured zone', async () => {
    const { days } = await readCheckHeatmap(90, NOON, [site(1), site(4)]);
    const mine = days.filter((d) => d.site_id === site(4));
    const day = (n: number) => addDays(dayOf(NOON, ZONE), -n);
    expect(mine).toEqual([
      { site_id: site(4), date: day(8), runs: 1, failed: 1, flaky: 0, degraded: 0 },
      { site_id: site(4), date: day(3), runs: 1, failed: 0, flaky: 1, degraded: 0 },
      { site_id: site(4), date: day(1), runs: 1, failed: 0, flaky: 0, degraded: 0 },
      { site_id: site(4), date: day(0), runs: 1, failed: 1, flaky: 0, degraded: 0 },
    ]);
    const site1 = days.find((d) => d.site_id === site(1));
    expect(site1).toEqual({ site_id: site(1), date: day(0), runs: 5, failed: 1, flaky: 1, degraded: 1 });
  });

  it('counts a subtask once in its day item, however often its rollup is applied', async () => {
    const [sub] = await ended([{ site: site(5), status: Done, ms: 700 }]);
    expect(await recordSubtaskRollup(sub)).toBe(true);
    // The sweeper applying the end's follow-up again, after a crash that cut it after its write.
    expect(await recordSubtaskRollup(sub)).toBe(false);
    const [other] = await ended([{ site: site(5), status: Failed }]);
    expect(await recordSubtaskRollup(other)).toBe(true);
    const cells = (await readCheckScorecard(7, NOON, [site(5)])).cells.filter((c) => c.site_id === site(5));
    expect(cells).toMatchObject([{ site_id: site(5), runs: 2, passed: 1, failed: 1 }]);
    expect((await readCheckTimings(site(5), 1, NOON)).points).toMatchObject([{ runs: 2 }]);
  });

  it('counts a run that ended under its site’s maintenance window apart, for the reports', async () => {
    // Fridays 11:00-13:00 in Yangon for site 6: NOON (a Friday, 12:00 there) is inside, 3 h later is not.
    await maintenanceStore().create({
      name: 'rollup test window',
      sites: [site(6)],
      mode: 'silent',
      enabled: true,
      kind: 'weekly',
      start_at: null,
      end_at: null,
      days: [5],
      start_time: '11:00',
      end_time: '13:00',
      creator_id: null,
    });
    invalidateMaintenanceWindows();
    // The window stays: the repair's rebuild below must count the same runs apart.
    const [inside, insideFailed] = await ended([
      { site: site(6), status: Done },
      { site: site(6), status: Failed },
    ]);
    const [outside] = await ended([{ site: site(6), status: Done, daysAgo: -0.125 }]);
    for (const sub of [inside, insideFailed, outside]) expect(await recordSubtaskRollup(sub)).toBe(true);
    const period = await readCheckPeriod(site(6), dayOf(NOON, ZONE), dayOf(NOON, ZONE));
    expect(period.cells).toMatchObject([{ runs: 3, passed: 2, maintenance_runs: 2, maintenance_passed: 1 }]);
  });

  const everySite = () => [1, 2, 3, 4, 5, 6].map(site);

  it("reads each site's recent days once for the refresher's answers together, the same answers", async () => {
    // As the refresher does it: the roll first, then the answers.
    await rollCheckRollups(NOON, everySite());
    const apart = await Promise.all([
      readCheckScorecard(7, NOON, everySite()),
      readCheckScorecard(30, NOON, everySite()),
      readCheckHeatmap(90, NOON, everySite()),
    ]);
    const { result: together, calls } = await callsDuring(() =>
      sharingDayReads(async () => [
        await readCheckScorecard(7, NOON, everySite()),
        await readCheckScorecard(30, NOON, everySite()),
        await readCheckHeatmap(90, NOON, everySite()),
      ]),
    );
    expect(together.map((t) => ('cells' in t ? t.cells : t.days))).toEqual(
      apart.map((t) => ('cells' in t ? t.cells : t.days)),
    );
    // One Query of each site's recent days, whichever answer asked first, beside each answer's own items.
    expect(calls.filter((c) => c.command === 'QueryCommand')).toHaveLength(everySite().length + 3);
  });

  it('rebuilds the same rollups from the rows in the repair', async () => {
    const read = () => Promise.all([readCheckScorecard(7, NOON, everySite()), readCheckHeatmap(90, NOON, everySite())]);
    const before = await read();
    // Drift: an item lost, one made up.
    const [lost] = await scanRollups('checkheat');
    await deleteRollup(lost);
    await putRollup({ kind: 'checkwin', partition: '7', sort: String(site(1)) }, { through: '2000-01-01', c21r: 99 });

    await rebuildCheckRollups(NOON);

    const after = await read();
    expect(sortCells(after[0].cells)).toEqual(sortCells(before[0].cells));
    expect(after[1].days).toEqual(before[1].days);
    // The rebuilt day items keep the ids they count: a rollup applied after the repair adds nothing.
    const [sub] = rows;
    expect(await recordSubtaskRollup(sub)).toBe(false);
  });
});
