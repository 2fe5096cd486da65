// The check rollups the dashboard reads instead of subtask rows (docs/check-engine.md "Rollups").
//
// A subtask that a checker ran and that ended (Done or Failed) adds, once, to three kinds of items,
// each laid out for the one screen that reads it:
//   - `check`, partition `s=<site>`, sort `<day>#<process><mode>`: the day of one (site, process,
//     mode): runs r, passed p, failed f, flaky k, degraded g, a duration sketch d<bucket> of the
//     passes, and `l` = '<status>:<time>' of the last one (a string: numbers are sums, lib/db/rollups). Timings read one site's days; rolls and repairs read them.
//   - `checkheat`, partition `all`, sort `<day>`: every site's r/f/k/g of one day (`r12`...): the
//     90-day heatmap is 90 small items.
//   - `checkwin`, partition `7|30|90`, sort `<site>`: one site's whole window ending on `through`,
//     every (process, mode) cell in it (`c13r`, `c13d40`...): the scorecard is one item per site.
// Days are days of the configured time zone. A window item is moved to a new day ("rolled") by the
// first subtask of the site that ends on that day: it is rebuilt from the site's day items of the
// window's earlier days (never today's), and today's subtasks then ADD to it, each once, under the
// condition `through = today`. A subtask ending just before midnight whose write lands after the
// roll adds to its day item only; the next day's roll counts it. A reader meeting a window that no
// subtask has rolled today takes out the days that have left it since.

import { RunStatus } from '../../shared/enums.js';
import { addDays, dayOf } from '../../shared/calendarDay.js';
import { ConditionFailedError } from '../lib/db/entity.js';
import {
  addToRollup,
  definePacking,
  deleteRollup,
  getRollup,
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
const prefixed = <V>(prefix: string, values: Record<string, V>): Record<string, V> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [`${prefix}${k}`, v]));

/** What one subtask adds to each item of its (site, process, mode). */
function cellAdd(sub: Ended & { end_at: number; start_at: number }): Record<string, number> {
  const passed = sub.status === Done;
  const add: Record<string, number> = {
    r: 1,
    p: passed ? 1 : 0,
    f: passed ? 0 : 1,
    k: sub.flaky ? 1 : 0,
    g: sub.degraded ? 1 : 0,
  };
  // Timings are of what works: a failure's time is its timeout, not the site's speed.
  if (passed) add[sketchAttr(SKETCH, sketchBucket(sub.duration_ms ?? sub.end_at - sub.start_at))] = 1;
  return add;
}

export interface SubtaskRollup {
  /** The day (configured zone) the subtask ended on. */
  day: string;
  /** Day and heatmap items: plain ADDs. */
  adds: RollupAdd[];
  /** The 7/30/90-day window items: ADDs under `through = day` (recordSubtaskRollup rolls them first). */
  windows: RollupAdd[];
}

/**
 * The ADDs one ended subtask makes, from the subtask alone (so a caller can make them exactly once
 * per subtask); null for a subtask that does not count.
 */
export function subtaskRollup(sub: Ended, zone: string): SubtaskRollup | null {
  if (!countsInRollups(sub)) return null;
  const day = dayOf(sub.end_at, zone);
  const add = cellAdd(sub);
  const last = { l: lastOf(sub.status, sub.end_at) };
  const cell = `c${cellOf(sub)}`;
  const site = sub.site_id;
  return {
    day,
    adds: [
      { kind: DAY_KIND, partition: `s=${site}`, sort: `${day}#${cellOf(sub)}`, add, set: last },
      {
        kind: HEAT_KIND,
        partition: 'all',
        sort: day,
        add: { [`r${site}`]: 1, [`f${site}`]: add.f, [`k${site}`]: add.k, [`g${site}`]: add.g },
      },
    ],
    windows: ROLLUP_WINDOWS.map((n) => ({
      kind: WINDOW_KIND,
      partition: String(n),
      sort: String(site),
      add: prefixed(cell, add),
      set: prefixed(cell, last),
    })),
  };
}

/** Adds an ended subtask to the dashboard's rollups (the engine calls it once, at the subtask's end). */
export async function recordSubtaskRollup(sub: StoredSubtask): Promise<void> {
  const { time_zone } = await getSystemConfig();
  const rollup = subtaskRollup(sub, time_zone);
  if (!rollup) return;
  await Promise.all([
    ...rollup.adds.map((change) => addToRollup(change)),
    ...rollup.windows.map((change) => addToWindow(sub.site_id, rollup.day, change)),
  ]);
}

async function addToWindow(site: number, day: string, change: RollupAdd): Promise<void> {
  const n = Number(change.partition) as RollupWindow;
  // Two rounds at most: a roll that another writer won has moved the window all the same.
  for (let round = 0; round < 3; round++) {
    try {
      await addToRollup(change, { expect: { through: day } });
      return;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    if ((await rollWindow(n, site, day)) === 'ahead') return;
  }
}

/**
 * Moves a site's n-day window to `day`: its content becomes the site's day items of the n − 1 days
 * before `day` (today's subtasks add themselves), written only while the window still holds what was
 * read. 'ahead' when the window is already past `day` (a late write: the next roll counts it).
 */
async function rollWindow(n: RollupWindow, site: number, day: string): Promise<'rolled' | 'ahead'> {
  const key = { kind: WINDOW_KIND, partition: String(n), sort: String(site) };
  const current = await getRollup(key);
  const through = current?.through as string | undefined;
  if (through !== undefined && through > day) return 'ahead';
  if (through === day) return 'rolled';
  const { items } = await queryRollups(DAY_KIND, `s=${site}`, {
    from: addDays(day, -(n - 1)),
    to: `${addDays(day, -1)}#~`,
  });
  await putRollup(key, windowValues(items, day), { expect: { through } }).catch((error) => {
    if (!(error instanceof ConditionFailedError)) throw error;
  });
  return 'rolled';
}

/** A window item's values from day items (`<day>#<cell>`): every cell's sums and its latest status. */
function windowValues(dayItems: RollupItem[], through: string): RollupValues {
  const values: RollupValues = { through };
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
 * Every (site, process, mode) cell over the last `days` days (today included, configured zone),
 * from one item per site; a site no subtask of which ended today has the days that left its
 * window since taken out (one more small Query for that site).
 */
export async function readCheckScorecard(
  days: RollupWindow,
  now = Date.now(),
): Promise<{ cells: CellStats[]; rcu: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const firstDay = addDays(today, -(days - 1));
  const { items, rcu } = await queryRollups(WINDOW_KIND, String(days));
  let extra = 0;
  const cells = await mapLimit(items, 8, async ({ sort, values }) => {
    const site = Number(sort);
    const through = values.through as string;
    if (through >= today) return cellsOf(site, values);
    // Nothing of this site ended since `through` (it would have rolled the window).
    if (through < firstDay) return cellsOf(site, keepLast(values));
    const left = await queryRollups(DAY_KIND, `s=${site}`, {
      from: addDays(through, -(days - 1)),
      to: `${addDays(firstDay, -1)}#~`,
    });
    extra += left.rcu;
    return cellsOf(site, values, windowValues(left.items, through));
  });
  return { cells: cells.flat(), rcu: rcu + extra };
}

/** A window whose days have all left it: only each cell's last status stays. */
function keepLast(values: RollupValues): RollupValues {
  return Object.fromEntries(Object.entries(values).filter(([attr]) => /^c\d\dl$/.test(attr)));
}

export interface HeatmapDay {
  site_id: number;
  date: string;
  runs: number;
  failed: number;
  flaky: number;
  degraded: number;
}

/** Per site and day (configured zone) of the last `days` days (`dates`, oldest first): one small item per day, read by site (HEAT_COLUMNS' order). */
export async function readCheckHeatmap(
  days: number,
  now = Date.now(),
): Promise<{ days: HeatmapDay[]; dates: string[]; rcu: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const dates = Array.from({ length: days }, (_, i) => addDays(today, i - (days - 1)));
  const { items, rcu } = await queryRollupRows(HEAT_KIND, 'all', { from: addDays(today, -(days - 1)), to: today });
  // Items come oldest day first: each site's days are collected in order, then the sites in order.
  const bySite = new Map<number, HeatmapDay[]>();
  for (const { sort, rows } of items) {
    for (const [key, [runs, failed, flaky, degraded]] of rows) {
      const site = Number(key);
      if (!(runs > 0) || !Number.isInteger(site)) continue;
      const row = { site_id: site, date: sort, runs, failed, flaky, degraded };
      const list = bySite.get(site);
      if (list) list.push(row);
      else bySite.set(site, [row]);
    }
  }
  const out: HeatmapDay[] = [];
  for (const site of [...bySite.keys()].sort((a, b) => a - b)) out.push(...(bySite.get(site) ?? []));
  return { days: out, dates, rcu };
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
 * cloud): the same ADDs summed per item, written whole, windows ending today; items no subtask
 * supports any more are deleted. Reads every subtask: run it from a job, when checks are quiet.
 */
export async function rebuildCheckRollups(now = Date.now()): Promise<{ subtasks: number; items: number }> {
  const { time_zone } = await getSystemConfig();
  const today = dayOf(now, time_zone);
  const ended = (await checkStore().subtasks.all())
    .filter(countsInRollups)
    // The last status of a cell is its latest subtask's: later writes win below.
    .sort((a, b) => a.end_at - b.end_at);
  const adds: RollupAdd[] = [];
  for (const sub of ended) adds.push(...(subtaskRollup(sub, time_zone)?.adds ?? []));
  const wanted = new Map<string, { kind: string; partition: string; sort: string; values: RollupValues }>();
  const idOf = (k: { kind: string; partition: string; sort: string }) => `${k.kind}\0${k.partition}\0${k.sort}`;
  const daysBySite = new Map<string, RollupItem[]>();
  for (const { kind, partition, sort, add, set } of mergeRollupAdds(adds)) {
    const values = { ...Object.fromEntries(Object.entries(add).filter(([, n]) => n !== 0)), ...set };
    wanted.set(idOf({ kind, partition, sort }), { kind, partition, sort, values });
    if (kind === DAY_KIND) daysBySite.set(partition, [...(daysBySite.get(partition) ?? []), { sort, values }]);
  }
  for (const [partition, items] of daysBySite) {
    const site = partition.slice('s='.length);
    for (const n of ROLLUP_WINDOWS) {
      const from = addDays(today, -(n - 1));
      const inside = items.filter((i) => i.sort >= from && i.sort <= `${today}#~`);
      const key = { kind: WINDOW_KIND, partition: String(n), sort: site };
      wanted.set(idOf(key), { ...key, values: windowValues(inside, today) });
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
