// The check panels of the home dashboard (issue 26 items 5 and 6): the scorecard, the heatmap and
// one site's timings, from the check rollups (functions/checks/checkRollup.ts) and one read of the
// sites' names. Never a log row: each answer reads a fixed number of small items whatever the
// history's size, and reports the read units it cost.
import {
  type Heatmap,
  heatmapOf,
  type Scorecard,
  type ScorecardDays,
  scorecardOf,
  type ScorecardRow,
  type TimingPoint,
} from '../../shared/schemas/dashboard.js';
import { readCheckHeatmap, readCheckScorecard, readCheckTimings } from '../checks/checkRollup.js';
import { SiteNotFoundError } from '../sites/errors.js';
import { liveSiteNames, liveSiteRefs } from '../sites/service.js';

const rate = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 10_000) / 10_000 : null);
const round = (rcu: number) => Math.round(rcu * 100) / 100;

export interface Measured<T> {
  result: T;
  rcu: number;
}

/** One row per (site, process, mode) that has run, over the last `days` days, by columns (`Scorecard`); deleted sites are left out. */
export async function scorecard(days: ScorecardDays, now = Date.now()): Promise<Measured<Scorecard>> {
  // The live sites first: the scorecard reads their days since the refresher's last roll.
  const names = await liveSiteNames();
  const { cells, rcu } = await readCheckScorecard(days, now, names.sites.keys());
  const rows = cells.flatMap((c): ScorecardRow[] => {
    const site = names.sites.get(c.site_id);
    if (!site) return [];
    return [
      {
        site_id: c.site_id,
        site_name: site.name,
        process: c.process as ScorecardRow['process'],
        mode: c.mode as ScorecardRow['mode'],
        runs: c.runs,
        passed: c.passed,
        failed: c.failed,
        flaky: c.flaky,
        degraded: c.degraded,
        pass_rate: rate(c.passed, c.runs),
        flake_rate: rate(c.flaky, c.runs),
        p50_ms: c.p50_ms,
        p95_ms: c.p95_ms,
        last_status: c.last_status as ScorecardRow['last_status'],
        last_at: c.last_at,
      },
    ];
  });
  rows.sort((a, b) => a.site_name.localeCompare(b.site_name) || a.process - b.process || a.mode - b.mode);
  return { result: scorecardOf(rows), rcu: round(rcu + names.rcu) };
}

/** Per live site and day with runs, over the last `days` days of the configured zone, by columns (`Heatmap`). */
export async function heatmap(days: number, now = Date.now()): Promise<Measured<Heatmap>> {
  const names = await liveSiteNames();
  const { days: cells, dates, rcu } = await readCheckHeatmap(days, now, names.sites.keys());
  return {
    result: heatmapOf(
      cells.filter((c) => names.sites.has(c.site_id)),
      dates,
    ),
    rcu: round(rcu + names.rcu),
  };
}

/**
 * p50/p95 per process and day of one site. A site that does not exist (or was deleted) is a 404
 * (issue 43): any id would otherwise compute and keep an answer, one per id asked.
 */
export async function timings(siteId: number, days: number, now = Date.now()): Promise<Measured<TimingPoint[]>> {
  const [{ points, rcu }, live] = await Promise.all([readCheckTimings(siteId, days, now), liveSiteRefs([siteId])]);
  if (!live.has(siteId)) throw new SiteNotFoundError(siteId);
  return { result: points as TimingPoint[], rcu: round(rcu) };
}
