// GET /metrics (issue 46 item 3) through the local stack: OpenMetrics text read back by a Prometheus
// text-format parser, its families and labels after one check of a new site, and what a scrape reads.
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let admin: string;
let metricsToken: string;
const scrape = async () => {
  const res = await client.get('/api/v1/metrics', { token: metricsToken });
  expect(res.status, String(res.body).slice(0, 300)).toBe(200);
  return { text: res.body as string, rcu: Number(res.headers['x-consumed-rcu']), type: res.headers['content-type'] };
};
const family = (families: MetricFamily[], name: string) => {
  const f = families.find((x) => x.name === name);
  if (!f) throw new Error(`no family ${name}`);
  return f;
};

/** Every family /metrics declares, with its type. */
const FAMILIES = {
  patrol_subtasks: 'GAUGE',
  patrol_check_duration_seconds: 'HISTOGRAM',
  patrol_incidents_unresolved: 'GAUGE',
  patrol_bank_accounts: 'GAUGE',
  patrol_bank_accounts_stale: 'GAUGE',
  patrol_bank_poll_lag_p95_seconds: 'GAUGE',
  patrol_bank_polls: 'GAUGE',
  patrol_bank_statements: 'GAUGE',
  patrol_bank_unreconciled: 'GAUGE',
  patrol_deliveries: 'GAUGE',
  patrol_webhook_endpoints_paused: 'GAUGE',
  patrol_queue_depth: 'GAUGE',
  patrol_figures_age_seconds: 'GAUGE',
} as const;

let site: { id: number; name: string };

beforeAll(async () => {
  admin = await k.admin();
  const made = await client.post('/api/v1/super/tokens', {
    token: admin,
    body: { name: uniqueName('prometheus-'), scope: 'metrics', expires_at: Date.now() + 86_400_000 },
  });
  metricsToken = made.body.data.token;
  const res = await client.post('/api/v1/sites', {
    token: admin,
    body: {
      name: uniqueName('Metrics '),
      url: stack.env.SANDBOX_SITE_URL,
      accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
    },
  });
  site = res.body.data;
  const op = await client.post(`/api/v1/sites/${site.id}/check`, {
    token: admin,
    body: { points: [{ point: 1, modes: [1] }] },
  });
  await until(
    'the check to end',
    async () => (await client.get(`/api/v1/operations/${op.body.data.id}`, { token: admin })).body.data.status,
    (s) => s === RunStatus.values.Done || s === RunStatus.values.Failed,
    { ms: 150_000, everyMs: 500 },
  );
}, 180_000);
afterAll(() => k.destroy());

describe('/metrics', () => {
  it('shows the new site within the figures age, with every family and its labels, as OpenMetrics', async () => {
    // Figures are kept up to 90 s (functions/metrics/routes.ts): the site's check shows once they are renewed,
    // and the queues' depth once the refresher (the one function that may read queues) made them.
    const { text, type } = await until(
      'the site and the queues in /metrics',
      scrape,
      (s) => s.text.includes(`site_id="${site.id}"`) && s.text.includes('patrol_queue_depth{'),
      { ms: 150_000, everyMs: 2_000 },
    );
    expect(type).toContain('application/openmetrics-text');
    expect(text.trimEnd().endsWith('# EOF')).toBe(true);
    const families = parsePrometheusTextFormat(text);
    for (const [name, kind] of Object.entries(FAMILIES)) expect(family(families, name).type, name).toBe(kind);
    expect(families.every((f) => f.name.startsWith('patrol_'))).toBe(true);

    const mine = family(families, 'patrol_subtasks').metrics.filter((m) => m.labels?.site_id === String(site.id));
    expect(mine.map((m) => m.labels?.status).sort()).toEqual(['degraded', 'failed', 'flaky', 'passed']);
    expect(mine[0].labels).toMatchObject({ site: site.name, process: 'Login', mode: 'D4' });
    const passed = Number(mine.find((m) => m.labels?.status === 'passed')?.value);
    const failed = Number(mine.find((m) => m.labels?.status === 'failed')?.value);
    expect(passed + failed).toBe(1);

    // The histogram's series of the site: its buckets rise to +Inf, which counts its passes.
    const buckets = text
      .split('\n')
      .filter((l) => l.startsWith('patrol_check_duration_seconds_bucket{') && l.includes(`site_id="${site.id}"`));
    expect(buckets.length).toBe(10);
    const counts = buckets.map((l) => Number(l.split(' ').pop()));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.at(-1)).toBe(passed);
    expect(buckets.at(-1)).toContain('le="+Inf"');

    // The bank families by bank: every bank, every status, each outcome.
    const labelsOf = (name: string) => family(families, name).metrics.map((m) => m.labels ?? {});
    for (const bank of ['KBZ', 'AYA']) {
      for (const status of ['enable', 'incorrect', 'locked', 'wrong', 'disable'])
        expect(labelsOf('patrol_bank_accounts')).toContainEqual({ bank, status });
      for (const outcome of ['ok', 'failed']) expect(labelsOf('patrol_bank_polls')).toContainEqual({ bank, outcome });
      for (const name of ['patrol_bank_accounts_stale', 'patrol_bank_statements', 'patrol_bank_unreconciled'])
        expect(labelsOf(name), name).toContainEqual({ bank });
    }
    // Queue depth: each queue of the registry, waiting and in flight, read through fauxqs.
    const depth = family(families, 'patrol_queue_depth').metrics;
    for (const queue of ['check', 'notify', 'bank', 'followUp'])
      for (const state of ['visible', 'in_flight']) {
        const sample = depth.find((m) => m.labels?.queue === queue && m.labels?.state === state);
        expect(Number(sample?.value), `${queue} ${state}`).toBeGreaterThanOrEqual(0);
      }
    const deliveries = family(families, 'patrol_deliveries').metrics.map(
      (m) => `${m.labels?.channel}/${m.labels?.outcome}`,
    );
    expect(deliveries.sort()).toEqual(['telegram/failed', 'telegram/sent', 'webhook/failed', 'webhook/sent']);
  }, 180_000);

  it('costs at most 5 read units a scrape', async () => {
    await scrape();
    for (let i = 0; i < 3; i++) {
      const { rcu } = await scrape();
      expect(rcu).toBeGreaterThan(0);
      expect(rcu).toBeLessThanOrEqual(5);
    }
  });
});
