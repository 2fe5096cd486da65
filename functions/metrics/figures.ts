// The figures /metrics writes (issue 46 item 3), gathered from what the product already keeps: the
// check rollups' 7-day window items (the Health panel's), the bank and delivery dashboards' day
// records, the incidents' status index and the sites' names. Computing them reads ~1 item per site
// and a few more; a scrape never does: the dashboard's refresher keeps this answer computed every
// minute (routes.ts, lib/db/storedAnswers.ts) and a scrape reads the one stored record.

import { emptyListQuery } from '../../shared/listQuery.js';
import { IncidentStatus } from '../../shared/schemas/incidents.js';
import { bankDashboard, deliveryDashboard } from '../bank/dashboard.js';
import { bankRuntime } from '../bank/runtime.js';
import { readCheckScorecard } from '../checks/checkRollup.js';
import { listIncidents } from '../incidents/service.js';
import { sketchCumulative } from '../lib/durationSketch.js';
import { liveSiteNames } from '../sites/service.js';

/** The window the check families cover, in days: the scorecard's shortest, kept every minute. */
export const METRICS_CHECK_DAYS = 7;
/** The bank and delivery families' window, as the home dashboard shows them. */
export const METRICS_BANK_HOURS = 24;
/** The duration histogram's upper bounds, seconds: a check runs from ~1 s to a few minutes. */
export const DURATION_BOUNDS_S = [1, 2, 5, 10, 20, 30, 60, 120, 300] as const;

/** One (site, process, mode) of the checks' window, as openMetrics.ts writes it. */
export interface CheckCellFigures {
  site_id: number;
  site: string;
  process: number;
  mode: number;
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  degraded: number;
  /** Passes per bucket of DURATION_BOUNDS_S (not cumulative; the last entry: above the last bound). */
  durations: number[];
  duration_sum_s: number;
}

/** A stored check row's numbers, in this order, then its `durations`. */
const CHECK_COLUMNS = ['process', 'mode', 'runs', 'passed', 'failed', 'flaky', 'degraded', 'duration_sum_s'] as const;

export interface MetricsFigures {
  made_at: number;
  /** `[site_id, name]` of the sites the check rows name. */
  sites: [number, string][];
  /**
   * One row of numbers per (site, process, mode): its index in `sites`, CHECK_COLUMNS, then the
   * durations (trailing empty buckets left out). Rows of numbers, not objects: 100 sites × 16 cells are
   * ~29 KB gzipped (3.5 RCU to read) instead of ~55 KB (7),
   * and a scrape pays a read unit per 8 KB of the stored record (figures.test.ts holds it to 5 at most).
   */
  checks: number[][];
  /** Unresolved incidents per (site, process, mode, status). */
  incidents: { site_id: number; site: string; process: number; mode: number; status: number; count: number }[];
  bank: {
    accounts_by_status: { status: number; count: number }[];
    stale: number;
    poll_lag_p95_ms: number | null;
    polls: number;
    polls_failed: number;
    statements: number;
    unreconciled: number;
  };
  delivery: { webhook: { sent: number; failed: number; paused: number }; telegram: { sent: number; failed: number } };
}

/** The check rows as cells, for the writer. */
export function checkCells(f: Pick<MetricsFigures, 'sites' | 'checks'>): CheckCellFigures[] {
  return f.checks.map((row) => {
    const [siteId, site] = f.sites[row[0]];
    const cell = Object.fromEntries(CHECK_COLUMNS.map((c, i) => [c, row[i + 1]])) as Record<
      (typeof CHECK_COLUMNS)[number],
      number
    >;
    const durations = row.slice(CHECK_COLUMNS.length + 1);
    while (durations.length <= DURATION_BOUNDS_S.length) durations.push(0);
    return { site_id: siteId, site, ...cell, durations };
  });
}

/** Cells as stored rows (`checkCells` reads them back). */
export function checkRows(cells: readonly CheckCellFigures[]): Pick<MetricsFigures, 'sites' | 'checks'> {
  const sites: [number, string][] = [];
  const index = new Map<number, number>();
  const checks = cells.map((c) => {
    let i = index.get(c.site_id);
    if (i === undefined) {
      i = sites.push([c.site_id, c.site]) - 1;
      index.set(c.site_id, i);
    }
    // Trailing empty buckets left out (checkCells puts them back): a check's passes fill a few.
    const last = c.durations.findLastIndex((n) => n > 0);
    return [i, ...CHECK_COLUMNS.map((col) => c[col]), ...c.durations.slice(0, last + 1)];
  });
  return { sites, checks };
}

/** Unresolved incidents are few (one per failing site, process and mode at most): a page of each status. */
const UNRESOLVED = [IncidentStatus.values.Open, IncidentStatus.values.Acknowledged, IncidentStatus.values.Snoozed];
const INCIDENT_PAGE = 1000;

async function unresolvedIncidents(): Promise<MetricsFigures['incidents']> {
  const page = await listIncidents(
    emptyListQuery({ page_size: INCIDENT_PAGE, filters: { status: { kind: 'enum', values: UNRESOLVED } } }),
  );
  const counts = new Map<string, MetricsFigures['incidents'][number]>();
  for (const i of page.result) {
    // The site families count check incidents; a bank incident has no site, process or mode.
    if (i.site_id === null || i.site_name === null || i.process === null || i.mode === null) continue;
    const key = `${i.site_id}:${i.process}:${i.mode}:${i.status}`;
    const row = counts.get(key) ?? {
      site_id: i.site_id,
      site: i.site_name,
      process: i.process,
      mode: i.mode,
      status: i.status,
      count: 0,
    };
    row.count++;
    counts.set(key, row);
  }
  return [...counts.values()];
}

export async function computeMetricsFigures(now = Date.now()): Promise<{ figures: MetricsFigures; rcu: number }> {
  const runtime = bankRuntime();
  const [card, names, incidents, bank, delivery] = await Promise.all([
    readCheckScorecard(METRICS_CHECK_DAYS, now),
    liveSiteNames(),
    unresolvedIncidents(),
    bankDashboard(runtime, METRICS_BANK_HOURS),
    deliveryDashboard(runtime, METRICS_BANK_HOURS),
  ]);
  const boundsMs = DURATION_BOUNDS_S.map((s) => s * 1000);
  const checks = card.cells.flatMap((c): CheckCellFigures[] => {
    const site = names.sites.get(c.site_id);
    if (!site) return [];
    const { counts, total, sumMs } = sketchCumulative(c.sketch, boundsMs);
    const durations = [...counts, total].map((n, i) => n - (i > 0 ? [...counts, total][i - 1] : 0));
    return [
      {
        site_id: c.site_id,
        site: site.name,
        process: c.process,
        mode: c.mode,
        runs: c.runs,
        passed: c.passed,
        failed: c.failed,
        flaky: c.flaky,
        degraded: c.degraded,
        durations,
        duration_sum_s: Math.round(sumMs / 1000),
      },
    ];
  });
  const b = bank.reply;
  const d = delivery.reply;
  return {
    figures: {
      made_at: now,
      ...checkRows(checks),
      incidents,
      bank: {
        accounts_by_status: b.accounts_by_status.map((s) => ({ status: s.status, count: s.count })),
        stale: b.stale.length,
        poll_lag_p95_ms: b.poll_lag_p95_ms,
        polls: b.polls,
        polls_failed: b.polls_failed,
        statements: b.statements.total,
        unreconciled: b.unreconciled.count,
      },
      delivery: {
        webhook: { sent: d.webhook.sent, failed: d.webhook.failed, paused: d.webhook.paused_endpoints.length },
        telegram: { sent: d.telegram.sent, failed: d.telegram.failed },
      },
    },
    rcu: card.rcu + names.rcu + bank.rcu + delivery.rcu,
  };
}
