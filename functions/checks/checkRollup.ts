// The check rollups the dashboard reads instead of subtask rows (docs/check-engine.md "Rollups").
//
// A subtask that a checker ran and that ended (Done or Failed) adds, once, to its day item; two
// more kinds are derived from the day items, each laid out for the one screen that reads it:
//   - `check`, partition `s=<site>`, sort `<day>#<process><mode>`: the day of one (site, process,
//     mode): runs r, passed p, failed f, flaky k, degraded g, a duration sketch d<bucket> of the
//     passes, `l` = '<status>:<time>' of the last one (a string: numbers are sums, lib/db/rollups),
//     and `ids`, the set of the subtasks it counts: the one ADD a subtask makes is guarded by its id
//     there (issue 44), so applying it again after a crash adds nothing. Timings, rolls, repairs and
//     the other readers' recent days read these.
//   - `checkheat`, partition `all`, sort `<day>`: every site's r/f/k/g of one day (`r12`...), written
//     whole (`sealed`) by the refresher once the day is two days old: the 90-day heatmap is 90 small
//     items, its last two days read from the day items.
//   - `checkwin`, partition `7|30|90`, sort `<site>`: one site's window `from`..`through` (through the
//     day before yesterday), every (process, mode) cell in it (`c13r`, `c13d40`...), rewritten whole
//     by the refresher's roll once a day: the scorecard is one item per site plus its recent days.
// Days are days of the configured time zone. A reader meeting a window not rolled since takes out
// the days that have left it and reads the days after it, so the answers never wait on a roll.

import { AsyncLocalStorage } from 'node:async_hooks';
import { RunStatus } from '../../shared/enums.js';
import { addDays, dayOf } from '../../shared/calendarDay.js';
import {
  addToRollup,
  definePacking,
  deleteRollup,
  mergeRollupAdds,
  putRollup,
  queryRollupRows,
  queryRollups,
  type RollupAdd,
  type RollupItem,
  type RollupValues,
  scanRollups,
} from '../lib/db/rollups.js';
import {
  mergeSketches,
  sketchAttr,
  sketchBucket,
  sketchOf,
  sketchQuantile,
  sketchQuantiles,
} from '../lib/durationSketch.js';
import { mapLimit } from '../lib/mapLimit.js';
import { maintenanceInForce } from '../maintenance/service.js';
import { liveSiteNames } from '../sites/service.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { type StoredSubtask, checkStore } from './store.js';

export const ROLLUP_WINDOWS = [7, 30, 90] as const;
export type RollupWindow = (typeof ROLLUP_WINDOWS)[number];

const DAY_KIND = 'check';
const HEAT_KIND = 'checkheat';
const WINDOW_KIND = 'checkwin';
const KINDS = [DAY_KIND, HEAT_KIND, WINDOW_KIND];
// A heatmap day is every site's four numbers: packed by site (`12:<r>,<f>,<k>,<g>`) once 8 are loose,
// so the 90 days of 100 sites are ~100 KB to read, not ~270 KB of JSON names and lingering loose numbers.
const HEAT_COLUMNS = ['r', 'f', 'k', 'g'] as const;
definePacking(HEAT_KIND, { looseLimit: 8, columns: HEAT_COLUMNS });
/** Attribute prefix of the duration sketch's buckets (lib/durationSketch). */
const SKETCH = 'd';

const { Done, Failed } = RunStatus.values;

type Ended = Pick<
  StoredSubtask,
  'site_id' | 'process' | 'mode' | 'status' | 'start_at' | 'end_at' | 'flaky' | 'degraded' | 'duration_ms'
>;

/** A subtask counts once a checker ran it and it ended; one failed because its login failed never ran. */
export function countsInRollups<T extends Ended>(sub: T): sub is T & { end_at: number; start_at: number } {
  return (sub.status === Done || sub.status === Failed) && sub.start_at !== null && sub.end_at !== null;
}

const cellOf = (sub: Pick<Ended, 'process' | 'mode'>) => `${sub.process}${sub.mode}`;
/** The last status and its time as one set value: '<status>:<epoch ms>'. */
const lastOf = (status: number, at: number) => `${status}:${at}`;
const parseLast = (value: unknown): { status: number; at: number } | undefined => {
  if (typeof value !== 'string') return undefined;
  const [status, at] = value.split(':').map(Number);
  return Number.isFinite(status) && Number.isFinite(at) ? { status, at } : undefined;
};

/**
 * What one subtask adds to each item of its (site, process, mode). A run that ended under a
 * maintenance window of its site (pause or silent) is also counted in `m` (its pass in `n`): a report
 * shows those runs and leaves them out of its success rate (functions/reports).
 */
function cellAdd(sub: Ended & { end_at: number; start_at: number }, inMaintenance: boolean): Record<string, number> {
  const passed = sub.status === Done;
  const add: Record<string, number> = {
    r: 1,
    p: passed ? 1 : 0,
    f: passed ? 0 : 1,
    k: sub.flaky ? 1 : 0,
    g: sub.degraded ? 1 : 0,
    ...(inMaintenance ? { m: 1, n: passed ? 1 : 0 } : {}),
  };
  // Timings are of what works: a failure's time is its timeout, not the site's speed.
  if (passed) add[sketchAttr(SKETCH, sketchBucket(sub.duration_ms ?? sub.end_at - sub.start_at))] = 1;
  return add;
}

export interface SubtaskRollup {
  /** The day (configured zone) the subtask ended on. */
  day: string;
  /** What the subtask adds to its day item (the only item written per subtask). */
  day_add: RollupAdd;
  /**
   * Its day item's add and what it is worth on its day's heatmap item: sums of either are what the
   * roll and the repair write (a seed or a rebuild sums them; the engine ADDs the day item only).
   */
  adds: RollupAdd[];
}

/**
 * The ADDs one ended subtask makes, from the subtask alone (so a caller can make them exactly once
 * per subtask); null for a subtask that does not count.
 */
export function subtaskRollup(sub: Ended, zone: string, inMaintenance = false): SubtaskRollup | null {
  if (!countsInRollups(sub)) return null;
  const day = dayOf(sub.end_at, zone);
  const add = cellAdd(sub, inMaintenance);
  const site = sub.site_id;
  const day_add: RollupAdd = {
    kind: DAY_KIND,
    partition: `s=${site}`,
    sort: `${day}#${cellOf(sub)}`,
    add,
    set: { l: lastOf(sub.status, sub.end_at) },
  };
  return { day, day_add, adds: [day_add, heatAdd(site, day, add)] };
}

const heatAdd = (site: number, day: string, add: Record<string, number>): RollupAdd => ({
  kind: HEAT_KIND,
  partition: 'all',
  sort: day,
  add: { [`r${site}`]: add.r ?? 0, [`f${site}`]: add.f ?? 0, [`k${site}`]: add.k ?? 0, [`g${site}`]: add.g ?? 0 },
});

/** The number set on a day item holding the subtasks it counts (the ADD's guard). */
const COUNTED = 'ids';

/** Whether the subtask ended under one of its site's windows (the windows are a cached read: no call a subtask). */
const endedInMaintenance = async (sub: Ended) =>
  countsInRollups(sub) && (await maintenanceInForce(sub.site_id, sub.end_at)) !== null;

/** The fields of an ended subtask its rollup reads (what the end's follow-up carries). */
export type RollupSubtask = Ended & { id: number };

/**
 * Adds an ended subtask to its day item, once: one ADD guarded by the subtask's id in the item's own
 * set (`ids`), which the same write puts there, so applying it again (the sweeper after a crash) adds
 * nothing. The windows and the heatmap are derived from the day items (rollCheckRollups, the readers),
 * not added to per subtask. Answers whether this call counted it.
 */
export async function recordSubtaskRollup(sub: RollupSubtask): Promise<boolean> {
  const { time_zone } = await getSystemConfig();
  const rollup = subtaskRollup(sub, time_zone, await endedInMaintenance(sub));
  if (!rollup) return false;
  return addToRollup(rollup.day_add, { once: { attr: COUNTED, id: sub.id } });
}

/**
 * A day is sealed once it is SEALED_AFTER days old: the refresher (rollCheckRollups) has written its
 * heatmap item and the windows hold it. The days after it (yesterday and today) are read from the day
 * items themselves, so a subtask whose rollup lands late (a sweeper's, after midnight) is counted.
 */
const SEALED_AFTER = 2;
const sealedThrough = (today: string) => addDays(today, -SEALED_AFTER);
/** A heatmap item written whole by the roll carries this: its day's sum of every site's day items. */
const SEALED = 'sealed';

type DayItems = { items: RollupItem[]; rcu: number };
const shared = new AsyncLocalStorage<Map<string, Promise<DayItems>>>();

/**
 * Runs `fn` with the sites' day item reads shared: the refresher computes the three scorecards, the
 * heatmap and the /metrics figures in a row, and each reads every site's recent days; inside, a site's
 * range is read once (its read units counted by the first reader).
 */
export function sharingDayReads<R>(fn: () => Promise<R>): Promise<R> {
  return shared.run(new Map(), fn);
}

/** A site's day items in [from, to] (days), consistent enough for a dashboard. */
async function dayItems(site: number, from: string, to: string): Promise<DayItems> {
  if (from > to) return { items: [], rcu: 0 };
  const read = () => queryRollups(DAY_KIND, `s=${site}`, { from, to: `${to}#~` });
  const memo = shared.getStore();
  if (!memo) return read();
  const key = `${site}\0${from}\0${to}`;
  const known = memo.get(key);
  if (known) return { items: (await known).items, rcu: 0 };
  const reading = read();
  memo.set(key, reading);
  return reading;
}

/** The sites a reader or the roll looks at: those given (default: the live sites) and those with a window item. */
async function sitesOf(sites: Iterable<number> | undefined, windowItems: RollupItem[] = []): Promise<number[]> {
  const ids = new Set(sites ?? (await liveSiteNames()).sites.keys());
  for (const { sort } of windowItems) ids.add(Number(sort));
  return [...ids].filter(Number.isInteger).sort((a, b) => a - b);
}

/**
 * The refresher's roll (every minute, functions/dashboard/refreshAnswers.ts): moves each site's window
 * items to hold the days through `sealedThrough(today)`, rewritten whole from its day items, and writes
 * the heatmap item of each of the last week's sealed days not written yet. A site already rolled today
 * costs one read of the window items shared by all; what a roll writes depends on the day items
 * alone, so two rolls at once write the same.
 */
export async function rollCheckRollups(
  now = Date.now(),
  sites?: Iterable<number>,
): Promise<{ windows: number; heat: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const through = sealedThrough(today);
  const windows = await Promise.all(ROLLUP_WINDOWS.map((n) => queryRollups(WINDOW_KIND, String(n))));
  const all = await sitesOf(
    sites,
    windows.flatMap((w) => w.items),
  );
  const rolledTo = ROLLUP_WINDOWS.map(
    (_, i) => new Map(windows[i].items.map((w) => [Number(w.sort), w.values.through])),
  );
  let rolled = 0;
  await mapLimit(all, 8, async (site) => {
    if (rolledTo.every((m) => m.get(site) === through)) return;
    const { items } = await dayItems(site, addDays(today, -(ROLLUP_WINDOWS.at(-1)! - 1)), through);
    for (const [i, n] of ROLLUP_WINDOWS.entries()) {
      const from = addDays(today, -(n - 1));
      await putRollup(
        { kind: WINDOW_KIND, partition: String(n), sort: String(site) },
        windowValues(
          items.filter((d) => d.sort >= from),
          through,
          from,
        ),
      );
      if (rolledTo[i].get(site) !== through) rolled++;
    }
  });
  // The heatmap: the last week's sealed days whose item is not sealed yet (the stack was off, or a new day).
  const days = Array.from({ length: 7 }, (_, i) => addDays(through, -i));
  const { items: heat } = await queryRollups(HEAT_KIND, 'all', { from: days.at(-1), to: through });
  const sealed = new Set(heat.filter((h) => h.values[SEALED] !== undefined).map((h) => h.sort));
  const open = days.filter((d) => !sealed.has(d)).sort();
  if (open.length) {
    const sums = new Map<string, RollupAdd[]>(open.map((d) => [d, []]));
    await mapLimit(all, 8, async (site) => {
      const { items } = await dayItems(site, open[0], open.at(-1)!);
      for (const { sort, values } of items)
        sums.get(sort.split('#')[0])?.push(heatAdd(site, sort.split('#')[0], numbers(values)));
    });
    for (const [day, adds] of sums) {
      const [merged] = mergeRollupAdds(adds);
      await putRollup({ kind: HEAT_KIND, partition: 'all', sort: day }, { ...(merged?.add ?? {}), [SEALED]: '1' });
    }
  }
  return { windows: rolled, heat: open.length };
}

/** The numbers of an item's values. */
const numbers = (values: RollupValues): Record<string, number> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'number')) as Record<string, number>;

/** A window item's values from day items (`<day>#<cell>`): every cell's sums and its latest status. */
function windowValues(dayItems: RollupItem[], through: string, from?: string): RollupValues {
  const values: RollupValues = { through, ...(from !== undefined && { from }) };
  const latest = new Map<string, number>();
  for (const { sort, values: v } of dayItems) {
    const prefix = `c${sort.split('#')[1]}`;
    for (const [attr, n] of Object.entries(v))
      if (typeof n === 'number') values[prefix + attr] = ((values[prefix + attr] as number | undefined) ?? 0) + n;
    const last = parseLast(v.l);
    if (last && last.at >= (latest.get(prefix) ?? 0)) {
      latest.set(prefix, last.at);
      values[`${prefix}l`] = v.l;
    }
  }
  return values;
}

// Reading.

/** One (site, process, mode) over a window. */
export interface CellStats {
  site_id: number;
  process: number;
  mode: number;
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  degraded: number;
  /** Runs, and passes among them, that ended under a maintenance window (`m`, `n`, where marked; reports leave them out of success). */
  maintenance_runs?: number;
  maintenance_passed?: number;
  p50_ms: number | null;
  p95_ms: number | null;
  last_status: number | null;
  last_at: number | null;
  /** The passes' duration sketch (lib/durationSketch): /metrics' histogram reads its buckets. */
  sketch: Map<number, number>;
}

/** A window attribute's name read once: `c13r` → cell '13', kind 'r'; `c13d40` → kind 'd', bucket 40. */
interface WindowAttr {
  cell: string;
  kind: string;
  bucket: number;
}
/** Names recur in every site's item (16 cells × a few numbers and buckets): each is parsed once per process. */
const windowAttrs = new Map<string, WindowAttr | null>();
function windowAttr(attr: string): WindowAttr | null {
  let parsed = windowAttrs.get(attr);
  if (parsed === undefined) {
    parsed =
      attr.length >= 4 && attr[0] === 'c'
        ? { cell: attr.slice(1, 3), kind: attr[3], bucket: attr[3] === SKETCH ? Number(attr.slice(4)) : -1 }
        : null;
    // Bounded: names are made of 8 processes × 2 modes × a few kinds and 101 buckets.
    if (windowAttrs.size < 10_000) windowAttrs.set(attr, parsed);
  }
  return parsed;
}

function cellsOf(site: number, values: RollupValues, minus: RollupValues = {}): CellStats[] {
  const cells = new Map<
    string,
    { num: Record<string, number>; sketch: Map<number, number>; last?: { status: number; at: number } }
  >();
  // `c13r`, `c13d40`, `c13l`: ~270 attributes a site, their names parsed once (windowAttr).
  for (const attr in values) {
    const parsed = windowAttr(attr);
    if (!parsed) continue;
    const value = values[attr];
    let c = cells.get(parsed.cell);
    if (!c) {
      c = { num: {}, sketch: new Map() };
      cells.set(parsed.cell, c);
    }
    if (parsed.kind === 'l') {
      c.last = parseLast(value);
      continue;
    }
    if (typeof value !== 'number') continue;
    const less = minus[attr];
    const n = typeof less === 'number' ? value - less : value;
    if (parsed.kind === SKETCH) c.sketch.set(parsed.bucket, Math.max(0, n));
    else c.num[parsed.kind] = Math.max(0, n);
  }
  const out: CellStats[] = [];
  for (const [key, c] of cells) {
    const [p50_ms, p95_ms] = sketchQuantiles(c.sketch, [0.5, 0.95]);
    out.push({
      site_id: site,
      process: Number(key[0]),
      mode: Number(key[1]),
      runs: c.num.r ?? 0,
      passed: c.num.p ?? 0,
      failed: c.num.f ?? 0,
      flaky: c.num.k ?? 0,
      degraded: c.num.g ?? 0,
      // Only where marked: most cells never ran under maintenance, and their stats stay as they were.
      ...(c.num.m ? { maintenance_runs: c.num.m, maintenance_passed: c.num.n ?? 0 } : {}),
      p50_ms,
      p95_ms,
      last_status: c.last?.status ?? null,
      last_at: c.last?.at ?? null,
      sketch: c.sketch,
    });
  }
  return out;
}

/**
 * Every (site, process, mode) cell over the last `days` days (today included, configured zone): a
 * site's window item (the days it holds, `from`..`through`, rolled by the refresher) with the days
 * that left it taken out and the days after it (yesterday and today, or more when no roll ran) read
 * from the site's day items. `sites`: the sites to read besides those with a window item (default:
 * the live ones).
 */
export async function readCheckScorecard(
  days: RollupWindow,
  now = Date.now(),
  sites?: Iterable<number>,
): Promise<{ cells: CellStats[]; rcu: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const firstDay = addDays(today, -(days - 1));
  const { items, rcu } = await queryRollups(WINDOW_KIND, String(days));
  const windows = new Map(items.map((w) => [Number(w.sort), w.values]));
  let extra = 0;
  const cells = await mapLimit(await sitesOf(sites, items), 8, async (site) => {
    const values = windows.get(site);
    const through = values?.through as string | undefined;
    // A window written before `from` was kept held the `days` days through `through`.
    const from = (values?.from as string | undefined) ?? (through && addDays(through, -(days - 1)));
    let base: RollupValues = {};
    let minus: RollupValues = {};
    let recentFrom = firstDay;
    if (values && through && from && through <= today) {
      if (through < firstDay) base = keepLast(values);
      else if (from <= firstDay) {
        base = values;
        recentFrom = addDays(through, 1);
        if (from < firstDay) {
          const left = await dayItems(site, from, addDays(firstDay, -1));
          extra += left.rcu;
          minus = windowValues(left.items, through);
        }
      }
    }
    const recent = await dayItems(site, recentFrom, today);
    extra += recent.rcu;
    return cellsOf(site, combine(base, minus, windowValues(recent.items, today)));
  });
  return { cells: cells.flat(), rcu: rcu + extra };
}

/** Window values `base` − `minus` + `plus` (numbers), each cell's last status the latest of base's and plus's. */
function combine(base: RollupValues, minus: RollupValues, plus: RollupValues): RollupValues {
  const out: RollupValues = {};
  for (const [attr, v] of Object.entries(base)) {
    const less = minus[attr];
    out[attr] = typeof v === 'number' && typeof less === 'number' ? v - less : v;
  }
  for (const [attr, v] of Object.entries(plus)) {
    const parsed = windowAttr(attr);
    if (!parsed) continue;
    if (typeof v === 'number') out[attr] = ((out[attr] as number | undefined) ?? 0) + v;
    else if (parsed.kind === 'l' && (parseLast(v)?.at ?? 0) >= (parseLast(out[attr])?.at ?? 0)) out[attr] = v;
  }
  return out;
}

/** A window whose days have all left it: only each cell's last status stays. */
function keepLast(values: RollupValues): RollupValues {
  return Object.fromEntries(Object.entries(values).filter(([attr]) => /^c\d\dl$/.test(attr)));
}

/**
 * Each (process, mode) cell of one site summed over the days `from`..`to` (inclusive, configured
 * zone), sketches merged, and the site's runs per day as the heatmap counts them: a report's period
 * (functions/reports/), one Query of the site's day items (exact: never sealed or rolled).
 */
export async function readCheckPeriod(
  siteId: number,
  from: string,
  to: string,
): Promise<{ cells: CellStats[]; days: HeatmapDay[]; rcu: number }> {
  const { items, rcu } = await queryRollups(DAY_KIND, `s=${siteId}`, { from, to: `${to}#~` });
  const byDay = new Map<string, HeatmapDay>();
  for (const { sort, values } of items) {
    const date = sort.split('#')[0];
    const row = byDay.get(date) ?? { site_id: siteId, date, runs: 0, failed: 0, flaky: 0, degraded: 0 };
    const n = (attr: string) => (typeof values[attr] === 'number' ? (values[attr] as number) : 0);
    row.runs += n('r');
    row.failed += n('f');
    row.flaky += n('k');
    row.degraded += n('g');
    byDay.set(date, row);
  }
  const days = [...byDay.values()].filter((d) => d.runs > 0);
  return { cells: cellsOf(siteId, windowValues(items, to)), days, rcu };
}

export interface HeatmapDay {
  site_id: number;
  date: string;
  runs: number;
  failed: number;
  flaky: number;
  degraded: number;
}

/**
 * Per site and day (configured zone) of the last `days` days (`dates`, oldest first): one small item
 * per day through the last day the refresher sealed (read by site, HEAT_COLUMNS' order), and the days
 * after it from the sites' day items (`sites`, default the live ones).
 */
export async function readCheckHeatmap(
  days: number,
  now = Date.now(),
  sites?: Iterable<number>,
): Promise<{ days: HeatmapDay[]; dates: string[]; rcu: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const firstDay = addDays(today, -(days - 1));
  const dates = Array.from({ length: days }, (_, i) => addDays(today, i - (days - 1)));
  const { items, rcu } = await queryRollupRows(HEAT_KIND, 'all', { from: firstDay, to: today });
  const lastSealed = items.reduce<string | undefined>(
    (last, item) => (item.strings[SEALED] !== undefined && (!last || item.sort > last) ? item.sort : last),
    undefined,
  );
  const liveFrom = lastSealed ? addDays(lastSealed, 1) : firstDay;
  const rows: HeatmapDay[] = [];
  for (const { sort, rows: bySite } of items) {
    if (sort >= liveFrom) continue;
    for (const [key, [runs, failed, flaky, degraded]] of bySite) {
      const site = Number(key);
      if (runs > 0 && Number.isInteger(site)) rows.push({ site_id: site, date: sort, runs, failed, flaky, degraded });
    }
  }
  let extra = 0;
  if (liveFrom <= today)
    await mapLimit(await sitesOf(sites), 8, async (site) => {
      const recent = await dayItems(site, liveFrom, today);
      extra += recent.rcu;
      const byDay = new Map<string, HeatmapDay>();
      for (const { sort, values } of recent.items) {
        const date = sort.split('#')[0];
        const row = byDay.get(date) ?? { site_id: site, date, runs: 0, failed: 0, flaky: 0, degraded: 0 };
        const n = (attr: string) => (typeof values[attr] === 'number' ? (values[attr] as number) : 0);
        row.runs += n('r');
        row.failed += n('f');
        row.flaky += n('k');
        row.degraded += n('g');
        byDay.set(date, row);
      }
      for (const row of byDay.values()) if (row.runs > 0) rows.push(row);
    });
  rows.sort((a, b) => a.site_id - b.site_id || a.date.localeCompare(b.date));
  return { days: rows, dates, rcu: rcu + extra };
}

export interface TimingPoint {
  date: string;
  process: number;
  runs: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

/** p50/p95 of the passes per process (modes together) and day of one site. */
export async function readCheckTimings(
  siteId: number,
  days: number,
  now = Date.now(),
): Promise<{ points: TimingPoint[]; rcu: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const { items, rcu } = await queryRollups(DAY_KIND, `s=${siteId}`, {
    from: addDays(today, -(days - 1)),
    to: `${today}#~`,
  });
  const byKey = new Map<string, { date: string; process: number; runs: number; sketches: Map<number, number>[] }>();
  for (const { sort, values } of items) {
    const [date, cell] = sort.split('#');
    const process = Number(cell[0]);
    const key = `${date}#${process}`;
    const point = byKey.get(key) ?? { date, process, runs: 0, sketches: [] };
    point.runs += typeof values.r === 'number' ? values.r : 0;
    point.sketches.push(sketchOf(values, SKETCH));
    byKey.set(key, point);
  }
  const points = [...byKey.values()].map(({ date, process, runs, sketches }) => {
    const merged = mergeSketches(sketches);
    return { date, process, runs, p50_ms: sketchQuantile(merged, 0.5), p95_ms: sketchQuantile(merged, 0.95) };
  });
  return { points: points.sort((a, b) => a.date.localeCompare(b.date) || a.process - b.process), rcu };
}

// Repair.

/**
 * Rebuilds every check rollup from the subtasks kept (the repair at start, `dataRepair` in the
 * cloud): each day item the sum of its subtasks, with their ids in its set (so a rollup applied
 * later still counts once); the windows and the heatmap's items as the roll writes them, through the
 * last sealed day; items no subtask supports any more are deleted. Reads every subtask: run it from
 * a job, when checks are quiet.
 */
export async function rebuildCheckRollups(now = Date.now()): Promise<{ subtasks: number; items: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const through = sealedThrough(today);
  const ended = (await checkStore().subtasks.all())
    .filter(countsInRollups)
    // The last status of a cell is its latest subtask's: later writes win below.
    .sort((a, b) => a.end_at - b.end_at);
  const adds: RollupAdd[] = [];
  const counted = new Map<string, Set<number>>();
  const idOf = (k: { kind: string; partition: string; sort: string }) => `${k.kind}\0${k.partition}\0${k.sort}`;
  for (const sub of ended) {
    const rollup = subtaskRollup(sub, time_zone, await endedInMaintenance(sub));
    if (!rollup) continue;
    adds.push(rollup.day_add);
    if (rollup.day <= through) adds.push(rollup.adds[1]);
    const key = idOf(rollup.day_add);
    counted.set(key, (counted.get(key) ?? new Set()).add(sub.id));
  }
  const wanted = new Map<string, { kind: string; partition: string; sort: string; values: RollupValues }>();
  const daysBySite = new Map<string, RollupItem[]>();
  for (const { kind, partition, sort, add, set } of mergeRollupAdds(adds)) {
    const values: RollupValues = { ...Object.fromEntries(Object.entries(add).filter(([, n]) => n !== 0)), ...set };
    const ids = counted.get(idOf({ kind, partition, sort }));
    if (ids) values[COUNTED] = ids;
    if (kind === HEAT_KIND) values[SEALED] = '1';
    wanted.set(idOf({ kind, partition, sort }), { kind, partition, sort, values });
    if (kind === DAY_KIND) daysBySite.set(partition, [...(daysBySite.get(partition) ?? []), { sort, values }]);
  }
  for (const [partition, items] of daysBySite) {
    const site = partition.slice('s='.length);
    for (const n of ROLLUP_WINDOWS) {
      const from = addDays(today, -(n - 1));
      const inside = items.filter((i) => i.sort >= from && i.sort <= `${through}#~`);
      const key = { kind: WINDOW_KIND, partition: String(n), sort: site };
      wanted.set(idOf(key), { ...key, values: windowValues(inside, through, from) });
    }
  }
  const existing = (await Promise.all(KINDS.map((kind) => scanRollups(kind)))).flat();
  const stale = existing.filter((item) => !wanted.has(idOf(item)));
  await mapLimit(
    [
      ...[...wanted.values()].map((item) => () => putRollup(item, item.values)),
      ...stale.map((item) => () => deleteRollup(item)),
    ],
    16,
    (write) => write(),
  );
  return { subtasks: ended.length, items: wanted.size };
}
