// A report's figures (issue 46 item 1), read from what the product keeps, never from subtask rows:
//   - checks: one Query of each live site's day items of the period (its process and mode cells,
//     duration sketches merged, and its days for the heatmap);
//   - maintenance: the windows (a few rows), placed on the period's wall clock (maintenanceTime.ts);
//   - incidents: the rows created in the period (a key range), and the timeline of those acknowledged;
//   - bank and deliveries: the accounts' day records of the period's days (one Query a day), the poll
//     records for a day not yet moved to its record, the accounts (names, the stale episode under way)
//     and the paused webhooks.
// What it read is in `rcu`, summed from the reads' own ConsumedCapacity (readUnits.ts).

import { emptyListQuery } from '../../shared/listQuery.js';
import { Bank, BankAccountStatus } from '../../shared/enums.js';
import { IncidentEventKind } from '../../shared/schemas/incidents.js';
import {
  BANK_ON_TIME_MS,
  type Report,
  type ReportBank,
  type ReportBankAccount,
  type ReportIncident,
  type ReportIncidents,
  type ReportPeriodValue,
  type ReportProcessRow,
  type ReportSite,
} from '../../shared/schemas/reports.js';
import { heatmapOf } from '../../shared/schemas/dashboard.js';
import type { DayFigures } from '../bank/entities.js';
import { bankRuntime } from '../bank/runtime.js';
import { type CellStats, readCheckPeriod } from '../checks/checkRollup.js';
import { getIncident, listIncidents } from '../incidents/service.js';
import { mergeSketches, sketchCumulative, sketchOf, sketchQuantiles } from '../lib/durationSketch.js';
import { mapLimit } from '../lib/mapLimit.js';
import { listMaintenance } from '../maintenance/service.js';
import { liveSiteNames } from '../sites/service.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { maintenanceTime } from './maintenanceTime.js';
import { type PeriodDays, periodDays } from './period.js';
import { countReadUnits } from './readUnits.js';

/** What compute fills; the stored row (id, generated_by, sent_to) is the store's. */
export type ReportFigures = Omit<Report, 'id' | 'created_at' | 'generated_by' | 'sent_to' | 'pdf_at'>;

const rate = (n: number, of: number) => (of > 0 ? n / of : null);

type Counts = Pick<ReportProcessRow, 'runs' | 'passed' | 'failed' | 'flaky' | 'degraded'> & {
  maintenance_runs: number;
  maintenance_passed: number;
};

/**
 * A row's numbers from summed cells. Runs that ended under maintenance are left out of both rates
 * (counted by the rollups where they mark them, docs/reports.md "Maintenance").
 */
function processRow(cells: CellStats[]): Omit<ReportProcessRow, 'process'> {
  const c: Counts = {
    runs: 0,
    passed: 0,
    failed: 0,
    flaky: 0,
    degraded: 0,
    maintenance_runs: 0,
    maintenance_passed: 0,
  };
  for (const cell of cells) {
    c.runs += cell.runs;
    c.passed += cell.passed;
    c.failed += cell.failed;
    c.flaky += cell.flaky;
    c.degraded += cell.degraded;
    c.maintenance_runs += cell.maintenance_runs ?? 0;
    c.maintenance_passed += cell.maintenance_passed ?? 0;
  }
  const [p50_ms, p95_ms] = sketchQuantiles(mergeSketches(cells.map((cell) => cell.sketch)), [0.5, 0.95]);
  const counted = c.runs - c.maintenance_runs;
  return {
    runs: c.runs,
    passed: c.passed,
    failed: c.failed,
    flaky: c.flaky,
    degraded: c.degraded,
    maintenance_runs: c.maintenance_runs,
    success_rate: rate(c.passed - c.maintenance_passed, counted),
    flaky_rate: rate(c.flaky, c.runs),
    p50_ms,
    p95_ms,
  };
}

async function checkFigures(p: PeriodDays, zone: string) {
  // Every live site's day items of the period (exact: what the heatmap's sealed items and the windows
  // are derived from); a site deleted since is left out, as the dashboard leaves it.
  const names = await liveSiteNames();
  const [read, windows] = await Promise.all([
    mapLimit([...names.sites.keys()], 8, async (id) => ({ id, ...(await readCheckPeriod(id, p.start, p.end)) })),
    listMaintenance(emptyListQuery({ page_size: 0 })),
  ]);
  const periods = read.filter((r) => r.cells.some((c) => c.runs > 0));
  const siteIds = periods.map((r) => r.id);
  const maintenance = maintenanceTime(windows.result, siteIds, p, zone);
  const sites: ReportSite[] = siteIds.map((site_id, i) => {
    const cells = periods[i].cells.filter((c) => c.runs > 0);
    const byProcess = new Map<number, CellStats[]>();
    for (const cell of cells) byProcess.set(cell.process, [...(byProcess.get(cell.process) ?? []), cell]);
    return {
      site_id,
      site_name: names.sites.get(site_id)?.name ?? `#${site_id}`,
      total: processRow(cells),
      processes: [...byProcess.entries()]
        .sort(([a], [b]) => a - b)
        .map(([process, of]) => ({ process: process as ReportProcessRow['process'], ...processRow(of) })),
      maintenance_minutes: maintenance.sites.get(site_id) ?? 0,
    };
  });
  sites.sort((a, b) => a.site_name.localeCompare(b.site_name) || a.site_id - b.site_id);
  return {
    sites,
    heatmap: heatmapOf(
      periods.flatMap((r) => r.days),
      p.days,
    ),
    maintenance: maintenance.windows.map(({ window: w, minutes }) => ({
      window_id: w.id,
      name: w.name,
      mode: w.mode,
      sites: w.sites,
      minutes,
    })),
  };
}

/** Every incident opened in the period; an acknowledged one's time from its timeline's first acknowledgement. */
async function incidentFigures(p: PeriodDays): Promise<ReportIncidents> {
  const page = await listIncidents(
    emptyListQuery({ page_size: 0, filters: { created_at: { kind: 'range', start: p.from, end: p.to - 1 } } }),
  );
  const rows = await mapLimit(page.result, 8, async (i): Promise<ReportIncident> => {
    let acknowledged_at: number | null = null;
    if (i.acknowledged_by) {
      const detail = await getIncident(i.id);
      acknowledged_at = detail.timeline.find((e) => e.kind === IncidentEventKind.values.Acknowledged)?.at ?? null;
    }
    const subject =
      i.site_name ??
      (i.bank_account_id !== null && i.bank_account_id !== undefined
        ? `${Bank.label(i.bank_name ?? undefined)} ${i.account_user ?? `#${i.bank_account_id}`}`
        : `#${i.id}`);
    return {
      id: i.id,
      subject,
      site_id: i.site_id ?? null,
      process: i.process ?? null,
      mode: i.mode ?? null,
      bank_account_id: i.bank_account_id ?? null,
      status: i.status,
      opened_at: i.opened_at,
      acknowledged_at,
      resolved_at: i.resolved_at,
      failures: i.failures,
      ack_ms: acknowledged_at === null ? null : acknowledged_at - i.opened_at,
      resolve_ms: i.resolved_at === null ? null : i.resolved_at - i.opened_at,
    };
  });
  rows.sort((a, b) => a.opened_at - b.opened_at || a.id - b.id);
  const stats = (values: (number | null)[]) => {
    const reached = values.filter((v): v is number => v !== null);
    return reached.length
      ? { mean: Math.round(reached.reduce((a, v) => a + v, 0) / reached.length), worst: Math.max(...reached) }
      : { mean: null, worst: null };
  };
  const ack = stats(rows.map((r) => r.ack_ms));
  const resolve = stats(rows.map((r) => r.resolve_ms));
  return {
    rows,
    ack_mean_ms: ack.mean,
    ack_worst_ms: ack.worst,
    resolve_mean_ms: resolve.mean,
    resolve_worst_ms: resolve.worst,
    unresolved: rows.filter((r) => r.resolved_at === null).length,
  };
}

/** Bank accounts and deliveries: each account's day records of the period summed. */
async function bankFigures(p: PeriodDays, now: number) {
  const { store } = bankRuntime();
  const [rolled, states, accounts, paused] = await Promise.all([
    Promise.all(p.days.map((day) => store.dayFigures(day))),
    store.allPollStates(now),
    store.listAccounts(emptyListQuery({ page_size: 0 })),
    store.pausedAccounts(),
  ]);
  const perAccount = new Map<number, DayFigures[]>();
  const add = (account: number, f: DayFigures) => perAccount.set(account, [...(perAccount.get(account) ?? []), f]);
  for (const { figures } of rolled) for (const [account, f] of figures) add(account, f);
  // A day not yet moved to its record (no poll of the account since) is still on the poll record.
  for (const [account, state] of states.states)
    if (state.data.day && state.data.day >= p.start && state.data.day <= p.end) add(account, state.data);
  const byId = new Map(accounts.result.map((a) => [a.id, a]));
  const sum = (list: DayFigures[], field: keyof DayFigures) =>
    list.reduce((a, f) => a + (typeof f[field] === 'number' ? (f[field] as number) : 0), 0);
  const onTime = (list: DayFigures[]) => {
    const lag = mergeSketches(list.map((f) => sketchOf(f as Record<string, unknown>, 'l')));
    const { counts, total } = sketchCumulative(lag, [BANK_ON_TIME_MS]);
    return { on: counts[0], total };
  };
  const staleMinutes = (id: number, list: DayFigures[]) => {
    // Ended episodes the staleness recorded per day; the one under way from the account's flag.
    let ms = sum(list, 'stale_ms');
    const a = byId.get(id);
    if (a?.stale && typeof a.stale_since === 'number')
      ms += Math.max(0, Math.min(p.to, now) - Math.max(p.from, a.stale_since));
    return Math.round(ms / 60_000);
  };
  const ids = [
    ...new Set([
      ...perAccount.keys(),
      ...accounts.result.filter((a) => a.status !== BankAccountStatus.values.Disable).map((a) => a.id),
    ]),
  ];
  const rows: ReportBankAccount[] = ids
    .filter((id) => perAccount.has(id))
    .map((id) => {
      const list = perAccount.get(id) ?? [];
      const a = byId.get(id);
      const lag = onTime(list);
      return {
        account_id: id,
        bank_name: a?.bank_name ?? 0,
        user: a?.user ?? `#${id}`,
        polls: sum(list, 'polls'),
        polls_failed: sum(list, 'polls_failed'),
        on_time_rate: rate(lag.on, lag.total),
        stale_minutes: staleMinutes(id, list),
        statements: sum(list, 'statements'),
        unreconciled: sum(list, 'unreconciled'),
      };
    })
    .sort((a, b) => a.bank_name - b.bank_name || a.user.localeCompare(b.user) || a.account_id - b.account_id);
  const all = [...perAccount.values()].flat();
  const lag = onTime(all);
  const bank: ReportBank = {
    accounts: rows,
    total: {
      polls: sum(all, 'polls'),
      polls_failed: sum(all, 'polls_failed'),
      on_time_rate: rate(lag.on, lag.total),
      stale_minutes: rows.reduce((a, r) => a + r.stale_minutes, 0),
      statements: sum(all, 'statements'),
      unreconciled: sum(all, 'unreconciled'),
    },
  };
  const sent = sum(all, 'wh_sent');
  const failed = sum(all, 'wh_failed');
  const delivery = {
    webhook: { sent, failed, success_rate: rate(sent, sent + failed), paused_endpoints: paused },
    telegram: { sent: sum(all, 'tg_sent'), failed: sum(all, 'tg_failed') },
  };
  return { bank, delivery };
}

/** The figures of one period (its first day `start`), as of `now`, and the read units they cost. */
export async function computeReport(
  period: ReportPeriodValue,
  start: string,
  now = Date.now(),
): Promise<{ figures: ReportFigures; rcu: number; parts: Record<'checks' | 'incidents' | 'bank', number> }> {
  let parts = { checks: 0, incidents: 0, bank: 0 };
  const { value, rcu } = await countReadUnits(async () => {
    const config = await getSystemConfig();
    const zone = config.time_zone;
    const p = periodDays(period, start, zone);
    const [checks, incidents, money] = await Promise.all([
      countReadUnits(() => checkFigures(p, zone)),
      countReadUnits(() => incidentFigures(p)),
      countReadUnits(() => bankFigures(p, now)),
    ]);
    parts = { checks: checks.rcu, incidents: incidents.rcu, bank: money.rcu };
    const figures: ReportFigures = {
      period,
      start: p.start,
      end: p.end,
      time_zone: zone,
      language: config.reports.language,
      generated_at: now,
      ...checks.value,
      incidents: incidents.value,
      ...money.value,
    };
    return figures;
  });
  return { figures: value, rcu, parts };
}
