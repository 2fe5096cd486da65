// The figures /metrics writes (issue 46 item 3), gathered from what the product already keeps: the
// check rollups' 7-day window items (the Health panel's), the bank accounts and the bank and delivery
// day records (per bank: bankFigures.ts), the incidents' status index, the sites' names, and each
// queue's depth (queueDepth.ts). Computing them reads ~1 item per site and per bank account and a few
// more; a scrape never does: the dashboard's refresher keeps this answer computed every minute
// (routes.ts, lib/db/storedAnswers.ts) and a scrape reads the one stored record.

import { emptyListQuery } from '../../shared/listQuery.js';
import { IncidentStatus } from '../../shared/schemas/incidents.js';
import { deliveryDashboard } from '../bank/dashboard.js';
import { bankRuntime } from '../bank/runtime.js';
import { readCheckScorecard } from '../checks/checkRollup.js';
import { listIncidents } from '../incidents/service.js';
import { sketchCumulative } from '../lib/durationSketch.js';
import { logger } from '../lib/logger.js';
import { liveSiteNames } from '../sites/service.js';
import { type BankFiguresOf, bankFiguresByBank } from './bankFigures.js';
import { type QueueDepth, readQueueDepths } from './queueDepth.js';

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
  /** Unresolved incidents per (check cell or bank, severity, status): few, one per failing cell or account at most. */
  incidents: IncidentCount[];
  /** The bank families, one entry per bank (bankFigures.ts). */
  banks: BankFiguresOf[];
  delivery: { webhook: { sent: number; failed: number; paused: number }; telegram: { sent: number; failed: number } };
  /** Each queue's depth; null when the figures were made by a scrape (only the refresher may read queues). */
  queues: QueueDepth[] | null;
}

/** A check incident names its cell, a bank incident its bank (issue 45); both have a severity. */
export interface IncidentCount {
  kind: 'check' | 'bank';
  site_id?: number;
  site?: string;
  process?: number;
  mode?: number;
  bank?: number;
  severity: string;
  status: number;
  count: number;
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

async function unresolvedIncidents(): Promise<IncidentCount[]> {
  const page = await listIncidents(
    emptyListQuery({ page_size: INCIDENT_PAGE, filters: { status: { kind: 'enum', values: UNRESOLVED } } }),
  );
  const counts = new Map<string, IncidentCount>();
  for (const i of page.result) {
    const severity = i.severity ?? 'warning';
    // Rows from before issue 45 have no kind: checks.
    const row: IncidentCount =
      i.site_id !== null && i.kind !== 'bank'
        ? {
            kind: 'check',
            site_id: i.site_id,
            site: i.site_name ?? String(i.site_id),
            process: i.process ?? 0,
            mode: i.mode ?? 0,
            severity,
            status: i.status,
            count: 0,
          }
        : { kind: 'bank', bank: i.bank_name ?? 0, severity, status: i.status, count: 0 };
    const key = JSON.stringify({ ...row, count: undefined });
    const seen = counts.get(key) ?? row;
    seen.count++;
    counts.set(key, seen);
  }
  return [...counts.values()];
}

/**
 * `queues`: read the queues' depth too, which only the dashboard's refresher is granted (registry
 * `access.queueDepth`); a scrape that computes leaves it out.
 */
export async function computeMetricsFigures(
  now = Date.now(),
  opts: { queues?: boolean } = {},
): Promise<{ figures: MetricsFigures; rcu: number }> {
  const runtime = bankRuntime();
  const [card, names, incidents, bank, delivery, queues] = await Promise.all([
    readCheckScorecard(METRICS_CHECK_DAYS, now),
    liveSiteNames(),
    unresolvedIncidents(),
    bankFiguresByBank(runtime, METRICS_BANK_HOURS),
    deliveryDashboard(runtime, METRICS_BANK_HOURS),
    opts.queues ? readQueueDepths() : undefined,
  ]);
  if (queues?.failed.length) logger.warn('queue depth not read', { queues: queues.failed });
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
  const d = delivery.reply;
  return {
    figures: {
      made_at: now,
      ...checkRows(checks),
      incidents,
      banks: bank.banks,
      delivery: {
        webhook: { sent: d.webhook.sent, failed: d.webhook.failed, paused: d.webhook.paused_endpoints.length },
        telegram: { sent: d.telegram.sent, failed: d.telegram.failed },
      },
      queues: queues?.depths ?? null,
    },
    rcu: card.rcu + names.rcu + bank.rcu + delivery.rcu,
  };
}
