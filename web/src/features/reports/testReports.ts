// A report and list rows as the server sends them, for the screens' tests and the e2e test's paper
// layout (which the root tsconfig checks: hence the relative import, not the web's @shared alias).
import type { Report, ReportRow, ReportSite } from '../../../../shared/schemas/reports';

export const GENERATED = Date.UTC(2026, 11, 7, 2, 30);
const MIN = 60_000;

export function reportRow(over: Partial<ReportRow> = {}): ReportRow {
  return {
    id: 7,
    created_at: GENERATED,
    period: 'week',
    start: '2026-11-30',
    end: '2026-12-06',
    time_zone: 'Asia/Yangon',
    language: 'en',
    generated_at: GENERATED,
    generated_by: null,
    sent_to: [{ channel: 'telegram', chat_id: '-100123', sent_at: GENERATED + MIN, documents: 2 }],
    pdf_at: GENERATED + MIN,
    ...over,
  };
}

const figures = (
  runs: number,
  passed: number,
  flaky: number,
  p50: number | null,
  p95: number | null,
  maintenance_runs = 0,
) => ({
  runs,
  passed,
  failed: runs - passed,
  flaky,
  degraded: 0,
  maintenance_runs,
  success_rate: runs ? passed / runs : null,
  flaky_rate: runs ? flaky / runs : null,
  p50_ms: p50,
  p95_ms: p95,
});

const dates = ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06'];

export function report(over: Partial<Report> = {}): Report {
  return {
    ...reportRow(),
    sites: [
      {
        site_id: 3,
        site_name: 'Lucky 4D',
        total: figures(40, 30, 2, 1200, 4100, 4),
        processes: [
          { process: 1, ...figures(20, 18, 2, 900, 2500) },
          { process: 2, ...figures(20, 12, 0, 1500, 4100, 4) },
        ],
        maintenance_minutes: 90,
      },
    ],
    heatmap: {
      dates,
      sites: [
        {
          site_id: 3,
          runs: [6, 6, 6, 6, 6, 5, 5],
          failed: [0, 4, 2, 0, 4, 0, 0],
          flaky: [0, 1, 0, 0, 1, 0, 0],
          degraded: [0, 0, 0, 0, 0, 0, 0],
        },
      ],
    },
    maintenance: [{ window_id: 5, name: 'Friday upgrade', mode: 'pause', sites: [3], minutes: 90 }],
    incidents: {
      rows: [
        {
          id: 41,
          subject: 'Lucky 4D',
          site_id: 3,
          process: 2,
          mode: 1,
          bank_account_id: null,
          status: 4,
          opened_at: Date.UTC(2026, 11, 1, 3, 0),
          acknowledged_at: Date.UTC(2026, 11, 1, 3, 12),
          resolved_at: Date.UTC(2026, 11, 1, 5, 5),
          failures: 4,
          ack_ms: 12 * MIN,
          resolve_ms: 125 * MIN,
        },
        {
          id: 42,
          subject: 'KBZ · kbz-ops',
          site_id: null,
          process: null,
          mode: null,
          bank_account_id: 8,
          status: 1,
          opened_at: Date.UTC(2026, 11, 4, 9, 0),
          acknowledged_at: null,
          resolved_at: null,
          failures: 2,
          ack_ms: null,
          resolve_ms: null,
        },
      ],
      ack_mean_ms: 12 * MIN,
      ack_worst_ms: 12 * MIN,
      resolve_mean_ms: 125 * MIN,
      resolve_worst_ms: 125 * MIN,
      unresolved: 1,
    },
    bank: {
      accounts: [
        {
          account_id: 8,
          bank_name: 1,
          user: 'kbz-ops',
          polls: 2016,
          polls_failed: 12,
          on_time_rate: 0.985,
          stale_minutes: 35,
          statements: 140,
          unreconciled: 1,
        },
      ],
      total: {
        polls: 2016,
        polls_failed: 12,
        on_time_rate: 0.985,
        stale_minutes: 35,
        statements: 140,
        unreconciled: 1,
      },
    },
    delivery: {
      webhook: { sent: 139, failed: 1, success_rate: 139 / 140, paused_endpoints: [8] },
      telegram: { sent: 140, failed: 3 },
    },
    ...over,
  };
}

/** A report of a period in which nothing ran. */
export function emptyReport(): Report {
  return report({
    sites: [],
    heatmap: { dates, sites: [] },
    maintenance: [],
    incidents: {
      rows: [],
      ack_mean_ms: null,
      ack_worst_ms: null,
      resolve_mean_ms: null,
      resolve_worst_ms: null,
      unresolved: 0,
    },
    bank: {
      accounts: [],
      total: { polls: 0, polls_failed: 0, on_time_rate: null, stale_minutes: 0, statements: 0, unreconciled: 0 },
    },
    delivery: {
      webhook: { sent: 0, failed: 0, success_rate: null, paused_endpoints: [] },
      telegram: { sent: 0, failed: 0 },
    },
  });
}

/** `report()` with `n` sites of three processes each: enough rows to run over several A4 pages. */
export function reportOfSites(n: number, over: Partial<Report> = {}): Report {
  const base = report(over);
  const sites: ReportSite[] = Array.from({ length: n }, (_, i) => ({
    ...base.sites[0],
    site_id: 100 + i,
    site_name: `Site ${String(i + 1).padStart(2, '0')}`,
    processes: [
      { process: 1, ...figures(20 + i, 18, i % 3, 900 + i, 2500 + i) },
      { process: 2, ...figures(20, 12 + (i % 8), 0, 1500, 4100, i % 2) },
      { process: 3, ...figures(10, 10, 0, 700, 1100) },
    ],
  }));
  const heatmap = {
    dates: base.heatmap.dates,
    sites: sites.map((s, i) => ({
      ...base.heatmap.sites[0],
      site_id: s.site_id,
      failed: base.heatmap.sites[0].failed.map((f) => (f + i) % 5),
    })),
  };
  return { ...base, sites, heatmap };
}
