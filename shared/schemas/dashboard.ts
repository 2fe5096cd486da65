import { z } from 'zod';
import type { EnumValue, Process, RunStatus, TestMode } from '../enums.js';
import type { BalanceStat, BankAccountStatusValue } from './bank.js';

// The home dashboard's API (issue 26 item 5): one definition of every answer for the routes in
// functions/dashboard/ and the panels of web/src/features/dashboard/. Each answer is read from kept
// rollups, never from log rows, and carries the x-consumed-rcu header.

export const DashboardMessages = {
  days: 'days must be 7, 30 or 90',
  heatmapDays: 'days must be a whole number from 1 to 90',
  hours: 'hours must be a whole number from 1 to 720',
  site: 'site_id must be a site id',
  shape: 'shape must be rows or columns',
} as const;

/** The wall screen (`/?tv=1`) reads every panel again this often. */
export const WALL_REFRESH_MS = 30_000;

/**
 * Every dashboard answer is the same for every caller: the API keeps each one this long and serves
 * it again meanwhile (functions/lib/http/sharedAnswers.ts). Well under WALL_REFRESH_MS, so each
 * refresh shows a newer answer than the last; as long as the console's own staleTime (10 s).
 */
export const DASHBOARD_SHARED_MS = 10_000;

/** The Health panel's switch. */
export const SCORECARD_DAYS = [7, 30, 90] as const;
export type ScorecardDays = (typeof SCORECARD_DAYS)[number];

/**
 * The queries the console's panels send (web dashboardApi.ts builds its calls from these), so the
 * API keeps their answers ready ahead of them (`refreshAhead`, functions/lib/http/keptAnswers.ts).
 */
export const CONSOLE_CALLS = {
  scorecard: (days: ScorecardDays) => ({ days: String(days), shape: 'columns' }),
  heatmap: { days: '90', shape: 'columns' },
  timings: (siteId: number, days: ScorecardDays) => ({ site_id: String(siteId), days: String(days) }),
  bank: { hours: '24' },
  delivery: { hours: '24' },
} as const;
/** The Timings panel's window when it opens. */
export const TIMINGS_OPENING_DAYS: ScorecardDays = 30;
/** The scorecard whose sites the Timings panel offers (and opens on the first of). */
export const TIMINGS_SITES_DAYS: ScorecardDays = 7;
/**
 * The site the Timings panel opens on: the first of the TIMINGS_SITES_DAYS scorecard's (rows come by
 * site name) with a timed pass, so the panel opens on a line to read, not on a site whose checks all
 * failed (only passes are timed); else the first. The console and the kept answers (checkRoutes.ts)
 * both choose by it.
 */
export const timingsOpeningSite = (rows: readonly { site_id: number; p50_ms?: number | null }[]): number | undefined =>
  (rows.find((r) => typeof r.p50_ms === 'number') ?? rows[0])?.site_id;
/** `/dashboard/x` and its query as the console calls it. */
export const consoleCall = (path: string, query: Readonly<Record<string, string>>) =>
  `${path}?${new URLSearchParams(query)}`;

const wholeNumber = (message: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Number(v)),
    z.number({ error: message }).int(message).min(min, message).max(max, message).default(fallback),
  );

const asNumber = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v));

/** 7, 30 or 90 days, else the spec-like message; `fallback` when absent. */
const windowDays = (fallback: ScorecardDays) =>
  z.preprocess(
    asNumber,
    z
      .union(
        SCORECARD_DAYS.map((d) => z.literal(d)),
        { error: DashboardMessages.days },
      )
      .default(fallback),
  );

/**
 * How Health and History are sent: `rows` (the default: one object per row, as issue 26 defines the
 * calls) or `columns` (`Scorecard` / `Heatmap` below: the same figures in a fraction of the JSON,
 * what the console asks for; a 100-site History is ~720 KB as rows, ~95 KB as columns).
 */
export const AnswerShape = z.enum(['rows', 'columns'], { error: DashboardMessages.shape }).default('rows');
export type AnswerShape = z.infer<typeof AnswerShape>;

/** GET /dashboard/scorecard?days=7|30|90 (default 7)&shape=rows|columns. */
export const ScorecardQuery = z.object({ days: windowDays(7), shape: AnswerShape });
export type ScorecardQuery = z.infer<typeof ScorecardQuery>;

/** GET /dashboard/heatmap?days=1..90 (default 90)&shape=rows|columns. */
export const HeatmapQuery = z.object({
  days: wholeNumber(DashboardMessages.heatmapDays, 1, 90, 90),
  shape: AnswerShape,
});
export type HeatmapQuery = z.infer<typeof HeatmapQuery>;

/** GET /dashboard/timings?site_id=&days=7|30|90 (default 30). */
export const TimingsQuery = z.object({
  site_id: z.preprocess(
    asNumber,
    z.number({ error: DashboardMessages.site }).int(DashboardMessages.site).positive(DashboardMessages.site),
  ),
  days: windowDays(30),
});
export type TimingsQuery = z.infer<typeof TimingsQuery>;

/** One (site, process, mode) over the chosen days. */
export interface ScorecardRow {
  site_id: number;
  site_name: string;
  process: EnumValue<typeof Process>;
  mode: EnumValue<typeof TestMode>;
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  degraded: number;
  /** passed ÷ runs, 0..1; null without runs. */
  pass_rate: number | null;
  /** flaky ÷ runs, 0..1; null without runs. */
  flake_rate: number | null;
  /** Of the passes' durations; null without passes. */
  p50_ms: number | null;
  p95_ms: number | null;
  /** The latest ended subtask's status (Done or Failed), even from before the window; null if none. */
  last_status: EnumValue<typeof RunStatus> | null;
  last_at: number | null;
}

/** The numbers of a scorecard row, each a column of `Scorecard`. */
const SCORECARD_COLUMNS = [
  'process',
  'mode',
  'runs',
  'passed',
  'failed',
  'flaky',
  'degraded',
  'pass_rate',
  'flake_rate',
  'p50_ms',
  'p95_ms',
  'last_status',
  'last_at',
] as const satisfies readonly (keyof ScorecardRow)[];
type ScorecardColumn = (typeof SCORECARD_COLUMNS)[number];

/**
 * GET /dashboard/scorecard?shape=columns's `result`: the rows above sent by columns, row i being entry i of every
 * array (rows ordered by site name, process, mode), its site `sites[site[i]]`. 1,600 rows (100 sites ×
 * 16 cells) are ~345 KB of JSON as objects, ~110 KB as columns, and reading them is what a shared
 * answer costs most. `scorecardRows` gives the rows back.
 */
export type Scorecard = {
  sites: { site_id: number; site_name: string }[];
  /** Each row's index into `sites`. */
  site: number[];
} & { [C in ScorecardColumn]: ScorecardRow[C][] };

/** Rows by columns, in their order. */
export function scorecardOf(rows: readonly ScorecardRow[]): Scorecard {
  const sites: Scorecard['sites'] = [];
  const siteIndex = new Map<number, number>();
  const columns = Object.fromEntries(SCORECARD_COLUMNS.map((c) => [c, [] as unknown[]])) as Record<
    ScorecardColumn,
    unknown[]
  >;
  const site: number[] = [];
  for (const row of rows) {
    let i = siteIndex.get(row.site_id);
    if (i === undefined) {
      i = sites.push({ site_id: row.site_id, site_name: row.site_name }) - 1;
      siteIndex.set(row.site_id, i);
    }
    site.push(i);
    for (const c of SCORECARD_COLUMNS) columns[c].push(row[c]);
  }
  return { sites, site, ...columns } as Scorecard;
}

/** The rows of a scorecard, in its order. */
export function scorecardRows(card: Scorecard): ScorecardRow[] {
  return card.site.map((s, i) => {
    const row = { site_id: card.sites[s].site_id, site_name: card.sites[s].site_name } as Record<string, unknown>;
    for (const c of SCORECARD_COLUMNS) row[c] = card[c][i];
    return row as unknown as ScorecardRow;
  });
}

/** One site and day (configured zone, 'YYYY-MM-DD') with runs. */
export interface HeatmapCell {
  site_id: number;
  date: string;
  runs: number;
  failed: number;
  flaky: number;
  degraded: number;
}

/**
 * GET /dashboard/heatmap?shape=columns's `result`: the cells above sent by columns, one number per day of `dates`
 * in each of a site's four arrays (0 on a day without runs). 100 sites × 90 days are 9,000 cells: as
 * objects ~720 KB of JSON, whose writing and reading cost more than a raw Query several times over;
 * as columns ~90 KB. `heatmapCells` gives the cells back.
 */
export interface Heatmap {
  /** The days of the window, oldest first. */
  dates: string[];
  /** Each live site with runs in the window, by id. */
  sites: HeatmapSite[];
}

export interface HeatmapSite {
  site_id: number;
  runs: number[];
  failed: number[];
  flaky: number[];
  degraded: number[];
}

/** Cells (days with runs only) in columns over `dates`; cells of other days are left out. */
export function heatmapOf(cells: Iterable<HeatmapCell>, dates: string[]): Heatmap {
  const index = new Map(dates.map((d, i) => [d, i]));
  const sites = new Map<number, HeatmapSite>();
  for (const c of cells) {
    const i = index.get(c.date);
    if (i === undefined) continue;
    let site = sites.get(c.site_id);
    if (!site) {
      const zeros = () => new Array<number>(dates.length).fill(0);
      site = { site_id: c.site_id, runs: zeros(), failed: zeros(), flaky: zeros(), degraded: zeros() };
      sites.set(c.site_id, site);
    }
    site.runs[i] = c.runs;
    site.failed[i] = c.failed;
    site.flaky[i] = c.flaky;
    site.degraded[i] = c.degraded;
  }
  return { dates, sites: [...sites.values()].sort((a, b) => a.site_id - b.site_id) };
}

/** The cells of a heatmap, days with runs only, by site then day. */
export function heatmapCells({ dates, sites }: Heatmap): HeatmapCell[] {
  const cells: HeatmapCell[] = [];
  for (const s of sites)
    for (const [i, date] of dates.entries())
      if (s.runs[i] > 0)
        cells.push({
          site_id: s.site_id,
          date,
          runs: s.runs[i],
          failed: s.failed[i],
          flaky: s.flaky[i],
          degraded: s.degraded[i],
        });
  return cells;
}

/** p50/p95 of one process's passes (both modes) on one day of one site. */
export interface TimingPoint {
  date: string;
  process: EnumValue<typeof Process>;
  runs: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

// GET /dashboard/bank and /dashboard/delivery (issue 26 items 4, 5): the bank monitor's and the
// bank deliveries' figures over the last `hours`, read from the daily rollups per account
// (docs/bank-monitor.md "Rollups"), never from log rows. Day figures cover the whole days (in the
// configured time zone) the window touches; statements also come per hour.

export const DASHBOARD_HOURS_MAX = 24 * 30;

/** `?hours=24`: 1 to 720 whole hours; 24 when absent. */
export const DashboardHoursQuery = z.object({
  hours: wholeNumber(DashboardMessages.hours, 1, DASHBOARD_HOURS_MAX, 24),
});
export type DashboardHoursQuery = z.infer<typeof DashboardHoursQuery>;

interface DashboardWindow {
  hours: number;
  /** The window asked for (ms). */
  from: number;
  to: number;
  /** The days (YYYY-MM-DD, configured zone) whose figures are counted. */
  days: string[];
}

/** GET /dashboard/bank?hours=24. */
export interface BankDashboard extends DashboardWindow {
  accounts_by_status: { status: BankAccountStatusValue; count: number }[];
  /** Ids of the accounts flagged stale now. */
  stale: number[];
  /** Balance changes that did not match their statements: how many in the days counted, and the newest in the window. */
  unreconciled: { count: number; latest: BalanceStat | null };
  /** p95 of how late polls started after their due second (ms), from the days' lag sketches; null without polls. */
  poll_lag_p95_ms: number | null;
  polls: number;
  polls_failed: number;
  /** Statements stored in the window, and per hour of the configured zone (for the bar chart). */
  statements: { total: number; per_hour: { day: string; hour: number; count: number }[] };
  /** When each account's newest statement was stored (ms), accounts with one. */
  last_statement_at: { account_id: number; at: number }[];
}

/** GET /dashboard/delivery?hours=24: final outcomes of deliveries (retries are not counted apart). */
export interface DeliveryDashboard extends DashboardWindow {
  webhook: {
    sent: number;
    failed: number;
    /** sent ÷ (sent + failed); null when none ended. */
    success_rate: number | null;
    /** Accounts whose webhook is paused after repeated failures. */
    paused_endpoints: number[];
  };
  telegram: { sent: number; failed: number };
}
