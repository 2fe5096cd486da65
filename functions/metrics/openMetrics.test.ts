import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { checkRows, type MetricsFigures } from './figures.js';
import { openMetricsText } from './openMetrics.js';

// The writer on figures the test sets (the integration test scrapes a live stack): the bank families
// by bank, queue depth by queue and state, incidents of both kinds with their severity.

const figures: MetricsFigures = {
  made_at: Date.now(),
  ...checkRows([
    {
      site_id: 7,
      site: 'Shop A',
      process: 1,
      mode: 1,
      runs: 10,
      passed: 9,
      failed: 1,
      flaky: 1,
      degraded: 0,
      durations: [0, 4, 5, 0, 0, 0, 0, 0, 0, 0],
      duration_sum_s: 20,
    },
  ]),
  incidents: [
    { kind: 'check', site_id: 7, site: 'Shop A', process: 1, mode: 1, severity: 'warning', status: 1, count: 1 },
    { kind: 'bank', bank: 2, severity: 'critical', status: 2, count: 3 },
  ],
  banks: [
    {
      bank: 1,
      accounts_by_status: [
        { status: 1, count: 5 },
        { status: 99, count: 2 },
      ],
      stale: 1,
      poll_lag_p95_ms: 1500,
      polls: 100,
      polls_failed: 4,
      statements: 12,
      unreconciled: 1,
    },
    {
      bank: 2,
      accounts_by_status: [{ status: 2, count: 1 }],
      stale: 0,
      poll_lag_p95_ms: null,
      polls: 0,
      polls_failed: 0,
      statements: 0,
      unreconciled: 0,
    },
  ],
  delivery: { webhook: { sent: 3, failed: 1, paused: 0 }, telegram: { sent: 2, failed: 0 } },
  queues: [
    { queue: 'check', visible: 12, in_flight: 3 },
    { queue: 'bank', visible: 0, in_flight: 1 },
  ],
};

const samples = (families: MetricFamily[], name: string) => {
  const f = families.find((x) => x.name === name);
  if (!f) throw new Error(`no family ${name}`);
  return f.metrics.map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) }));
};

describe('the OpenMetrics writer', () => {
  it('labels the bank families by bank, queue depth by queue and state, incidents by kind and severity', async () => {
    const { text } = await openMetricsText(figures);
    const families = parsePrometheusTextFormat(text);

    expect(samples(families, 'patrol_bank_accounts')).toEqual([
      { labels: { bank: 'KBZ', status: 'enable' }, value: 5 },
      { labels: { bank: 'KBZ', status: 'disable' }, value: 2 },
      { labels: { bank: 'AYA', status: 'incorrect' }, value: 1 },
    ]);
    expect(samples(families, 'patrol_bank_accounts_stale')).toEqual([
      { labels: { bank: 'KBZ' }, value: 1 },
      { labels: { bank: 'AYA' }, value: 0 },
    ]);
    // AYA had no poll: no lag sample rather than a 0 that reads as "on time".
    expect(samples(families, 'patrol_bank_poll_lag_p95_seconds')).toEqual([{ labels: { bank: 'KBZ' }, value: 1.5 }]);
    expect(samples(families, 'patrol_bank_polls')).toContainEqual({
      labels: { bank: 'KBZ', outcome: 'ok' },
      value: 96,
    });
    expect(samples(families, 'patrol_bank_statements')).toContainEqual({ labels: { bank: 'KBZ' }, value: 12 });
    expect(samples(families, 'patrol_bank_unreconciled')).toContainEqual({ labels: { bank: 'AYA' }, value: 0 });

    expect(samples(families, 'patrol_queue_depth')).toEqual([
      { labels: { queue: 'check', state: 'visible' }, value: 12 },
      { labels: { queue: 'check', state: 'in_flight' }, value: 3 },
      { labels: { queue: 'bank', state: 'visible' }, value: 0 },
      { labels: { queue: 'bank', state: 'in_flight' }, value: 1 },
    ]);

    expect(samples(families, 'patrol_incidents_unresolved')).toEqual([
      {
        labels: {
          kind: 'check',
          site: 'Shop A',
          site_id: '7',
          process: 'Login',
          mode: 'D4',
          severity: 'warning',
          status: 'open',
        },
        value: 1,
      },
      { labels: { kind: 'bank', bank: 'AYA', severity: 'critical', status: 'acknowledged' }, value: 3 },
    ]);
  });

  it('declares the queue family without samples when the figures hold no queue depth', async () => {
    const { text } = await openMetricsText({ ...figures, queues: null });
    expect(text).toContain('# TYPE patrol_queue_depth gauge');
    expect(text).not.toMatch(/^patrol_queue_depth\{/m);
  });
});
