// The figures as OpenMetrics text, written by prom-client into a Registry of this answer's own (the
// default registry is process-wide: a second scrape would add to the first's samples).

import { Gauge, Histogram, type OpenMetricsContentType, Registry } from 'prom-client';
import { Bank, BankAccountStatus, Process, TestMode } from '../../shared/enums.js';
import { IncidentStatus } from '../../shared/schemas/incidents.js';
import {
  checkCells,
  DURATION_BOUNDS_S,
  METRICS_BANK_HOURS,
  METRICS_CHECK_DAYS,
  type MetricsFigures,
} from './figures.js';

/** An enum value by its name (`PlaceBets`, `D4`, `Enable`): a label value a query can read. */
const nameOf = (values: Readonly<Record<string, number>>, value: number): string =>
  Object.entries(values).find(([, v]) => v === value)?.[0] ?? String(value);
const processName = (v: number) => nameOf(Process.values, v);
const modeName = (v: number) => nameOf(TestMode.values, v);
const bankName = (v: number) => nameOf(Bank.values, v);

/**
 * prom-client's Histogram counts one observation at a time; the figures hold bucket counts already
 * (from the rollups' sketches), so they are set whole. `zero` makes the labels' entry, which is then
 * filled: prom-client 15's per-series record (`bucketValues` per upper bound, not cumulative, `sum`,
 * `count`), checked by the integration test that parses the text back.
 */
class KeptHistogram<L extends string> extends Histogram<L> {
  setCounts(labels: Record<L, string>, perBucket: readonly number[], sum: number): void {
    this.zero(labels);
    const series = Object.values((this as unknown as { hashMap: Record<string, HistogramSeries> }).hashMap).find(
      (s) => s.labels === labels,
    );
    if (!series) throw new Error('prom-client histogram internals changed');
    DURATION_BOUNDS_S.forEach((bound, i) => {
      series.bucketValues[bound] = perBucket[i] ?? 0;
    });
    series.count = perBucket.reduce((a, n) => a + n, 0);
    series.sum = sum;
  }
}
interface HistogramSeries {
  labels: object;
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}

export async function openMetricsText(f: MetricsFigures): Promise<{ text: string; contentType: string }> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const registers = [registry];
  const cell = ['site', 'site_id', 'process', 'mode'] as const;

  const subtasks = new Gauge({
    name: 'patrol_subtasks',
    help: `Ended subtasks over the last ${METRICS_CHECK_DAYS} days by outcome (a flaky or degraded pass is also passed)`,
    labelNames: [...cell, 'status'],
    registers,
  });
  const durations = new KeptHistogram({
    name: 'patrol_check_duration_seconds',
    help: `Duration of passed checks over the last ${METRICS_CHECK_DAYS} days (from the rollups' sketches, within 20 %)`,
    labelNames: [...cell],
    buckets: [...DURATION_BOUNDS_S],
    registers,
  });
  for (const c of checkCells(f)) {
    const labels = {
      site: c.site,
      site_id: String(c.site_id),
      process: processName(c.process),
      mode: modeName(c.mode),
    };
    for (const status of ['passed', 'failed', 'flaky', 'degraded'] as const)
      subtasks.set({ ...labels, status }, c[status]);
    durations.setCounts(labels, c.durations, c.duration_sum_s);
  }

  const incidents = new Gauge({
    name: 'patrol_incidents_unresolved',
    help: 'Incidents not resolved, by severity and status (open, acknowledged, snoozed): a check cell or a bank',
    labelNames: ['kind', ...cell, 'bank', 'severity', 'status'],
    registers,
  });
  for (const i of f.incidents)
    incidents.set(
      {
        kind: i.kind,
        ...(i.kind === 'check'
          ? {
              site: i.site ?? '',
              site_id: String(i.site_id),
              process: processName(i.process ?? 0),
              mode: modeName(i.mode ?? 0),
            }
          : { bank: bankName(i.bank ?? 0) }),
        severity: i.severity,
        status: nameOf(IncidentStatus.values, i.status).toLowerCase(),
      },
      i.count,
    );

  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers });
  const accounts = gauge('patrol_bank_accounts', 'Bank accounts by bank and status', ['bank', 'status']);
  const stale = gauge('patrol_bank_accounts_stale', 'Bank accounts flagged stale now', ['bank']);
  const lag = gauge(
    'patrol_bank_poll_lag_p95_seconds',
    `p95 of how late bank polls started after their due second, last ${METRICS_BANK_HOURS} h`,
    ['bank'],
  );
  const polls = gauge('patrol_bank_polls', `Bank polls by outcome, last ${METRICS_BANK_HOURS} h`, ['bank', 'outcome']);
  const statements = gauge('patrol_bank_statements', `Statements stored, last ${METRICS_BANK_HOURS} h`, ['bank']);
  const unreconciled = gauge(
    'patrol_bank_unreconciled',
    `Balance changes that did not match their statements, last ${METRICS_BANK_HOURS} h`,
    ['bank'],
  );
  for (const b of f.banks) {
    const bank = bankName(b.bank);
    for (const s of b.accounts_by_status)
      accounts.set({ bank, status: nameOf(BankAccountStatus.values, s.status).toLowerCase() }, s.count);
    stale.set({ bank }, b.stale);
    // No poll in the window, no lag: the series is absent rather than 0.
    if (b.poll_lag_p95_ms !== null) lag.set({ bank }, b.poll_lag_p95_ms / 1000);
    polls.set({ bank, outcome: 'ok' }, Math.max(0, b.polls - b.polls_failed));
    polls.set({ bank, outcome: 'failed' }, b.polls_failed);
    statements.set({ bank }, b.statements);
    unreconciled.set({ bank }, b.unreconciled);
  }

  const deliveries = gauge('patrol_deliveries', `Final outcomes of deliveries, last ${METRICS_BANK_HOURS} h`, [
    'channel',
    'outcome',
  ]);
  deliveries.set({ channel: 'webhook', outcome: 'sent' }, f.delivery.webhook.sent);
  deliveries.set({ channel: 'webhook', outcome: 'failed' }, f.delivery.webhook.failed);
  deliveries.set({ channel: 'telegram', outcome: 'sent' }, f.delivery.telegram.sent);
  deliveries.set({ channel: 'telegram', outcome: 'failed' }, f.delivery.telegram.failed);
  gauge('patrol_webhook_endpoints_paused', 'Bank webhook endpoints paused after repeated failures').set(
    f.delivery.webhook.paused,
  );

  const queues = gauge(
    'patrol_queue_depth',
    'Messages of each queue: waiting (visible) and received but not yet done (in_flight), approximate',
    ['queue', 'state'],
  );
  for (const q of f.queues ?? []) {
    queues.set({ queue: q.queue, state: 'visible' }, q.visible);
    queues.set({ queue: q.queue, state: 'in_flight' }, q.in_flight);
  }
  gauge('patrol_figures_age_seconds', 'How old the figures of this answer are').set(
    Math.max(0, (Date.now() - f.made_at) / 1000),
  );

  return { text: await registry.metrics(), contentType: registry.contentType };
}
