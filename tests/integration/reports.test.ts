// Reports on the shared stack (issue 46 item 1): a past week seeded through the product's own
// writers (each subtask's end through the engine's rollup call, incidents and their timeline through
// the incident store, bank day figures through the bank store), with failures, flaky and slow runs,
// a weekly maintenance window and incidents; the report's figures are compared with figures the test
// computes from the raw rows it seeded. The week is in January 2025, so no other test's rows fall in it.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import type { Report, ReportRow } from '../../shared/schemas/reports.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let admin: string;
let viewer: string;
const api = (method: 'get' | 'post' | 'delete', path: string, body?: unknown, token = admin) =>
  client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

const WEEK = '2025-01-06'; // a Monday
const DAYS = ['2025-01-06', '2025-01-07', '2025-01-08', '2025-01-09', '2025-01-10', '2025-01-11', '2025-01-12'];
const HOUR = 3_600_000;

interface RawSubtask {
  id: number;
  site_id: number;
  process: number;
  mode: number;
  status: number;
  start_at: number;
  end_at: number;
  flaky: boolean;
  degraded: boolean;
  duration_ms: number;
}
interface RawIncident {
  site: number;
  opened_at: number;
  acknowledged_at: number | null;
  resolved_at: number;
}

let zone: string;
let dayStart: (day: string, zone: string) => number;
let siteA: { id: number; name: string };
let siteB: { id: number; name: string };
let windowId: number;
const raw: RawSubtask[] = [];
const incidents: RawIncident[] = [];
const bankAccount = 900_000_000 + (Date.now() % 1_000_000);
const lags: number[] = [];
let report: Report;
let reportId: number;
let rcu: number;

/** p-quantile of raw values, nearest rank (the sketch answers within ±10 % of it). */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
};

beforeAll(async () => {
  admin = await k.admin();
  const viewerName = uniqueName('rviewer')
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 20);
  await k.createUser(viewerName, 'viewer-pass-1', 'viewer');
  viewer = await login(stack.url, viewerName, 'viewer-pass-1');
  const site = async (prefix: string) => {
    const res = await api('post', '/sites', {
      name: uniqueName(prefix),
      url: stack.env.SANDBOX_SITE_URL,
      accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.data.id as number, name: res.body.data.name as string };
  };
  siteA = await site('Report A ');
  siteB = await site('Report B ');
  // Wednesdays 02:00-04:00 for site A: the week's one occurrence is 120 minutes, and the seeded runs
  // keep out of it, as rule slots do for a paused site.
  const window = await api('post', '/maintenance', {
    name: uniqueName('Report window '),
    sites: [siteA.id],
    mode: 'pause',
    kind: 'weekly',
    days: [3],
    start_time: '02:00',
    end_time: '04:00',
    enabled: true,
  });
  expect(window.status, JSON.stringify(window.body)).toBe(200);
  windowId = window.body.data.id;

  // The product's writers in this process, on the stack's engines.
  Object.assign(process.env, stack.env);
  (await import('../../functions/lib/aws/clients.js')).resetClients();
  const { recordSubtaskRollup } = await import('../../functions/checks/checkRollup.js');
  const { incidentStore } = await import('../../functions/incidents/store.js');
  const { bankStore } = await import('../../functions/bank/store.js');
  const { sketchBucket } = await import('../../functions/lib/durationSketch.js');
  ({ dayStart } = await import('../../shared/calendarDay.js'));
  zone = (await api('get', '/super/system-config')).body.data.document.time_zone;

  // Subtasks: A's process 1 (mode 1) and 2 (mode 3), B's process 1; 12 a day each, every two hours
  // from 05:00; A's process 2 fails on Tuesday and Thursday afternoons; some flaky and slow passes.
  let id = 9_000_000_000 + (Date.now() % 1_000_000) * 1000;
  const cells = [
    { site: () => siteA.id, process: 1, mode: 1, base: 1500 },
    { site: () => siteA.id, process: 2, mode: 3, base: 4000 },
    { site: () => siteB.id, process: 1, mode: 1, base: 900 },
  ];
  for (const [d, day] of DAYS.entries())
    for (const [c, cell] of cells.entries())
      for (let i = 0; i < 12; i++) {
        const end = dayStart(day, zone) + 5 * HOUR + i * 90 * 60_000 + c * 60_000;
        const failed = cell.process === 2 && (d === 1 || d === 3) && i >= 8;
        const duration = Math.round(cell.base * (1 + ((i * 7 + d * 3) % 10) / 10));
        const sub: RawSubtask = {
          id: ++id,
          site_id: cell.site(),
          process: cell.process,
          mode: cell.mode,
          status: failed ? RunStatus.values.Failed : RunStatus.values.Done,
          start_at: end - duration,
          end_at: end,
          flaky: !failed && (i + d) % 9 === 0,
          degraded: !failed && i === 11,
          duration_ms: duration,
        };
        raw.push(sub);
        await recordSubtaskRollup(sub as never);
      }

  // Incidents of the week: A's process 2 twice (acknowledged after 10 min, resolved after 1 h; then
  // not acknowledged, resolved after 3 h), B once (acknowledged after 25 min, resolved after 30 min).
  const store = incidentStore();
  const incident = async (site: { id: number; name: string }, process: number, raw: RawIncident) => {
    const incidentId = await store.newId();
    await store.create(
      {
        kind: 'check',
        site_id: site.id,
        site_name: site.name,
        process,
        mode: 1,
        bank_account_id: null,
        bank_name: null,
        account_user: null,
        rule_id: null,
        rule_name: null,
        status: 4, // Resolved
        opened_at: raw.opened_at,
        resolved_at: raw.resolved_at,
        failures: 3,
        last_failure_at: raw.opened_at,
        last_message: 'seeded',
        acknowledged_by: raw.acknowledged_at === null ? null : { id: 1, nickname: 'admin' },
        snoozed_until: null,
        severity: 'warning',
        parent_id: null,
        cause: null,
        children: 0,
        open_key: `report-test:${incidentId}`,
        created_at: raw.opened_at,
      } as never,
      incidentId,
    );
    if (raw.acknowledged_at !== null)
      await store.addEvent({
        incident_id: incidentId,
        kind: 'acknowledged',
        at: raw.acknowledged_at,
        subtask_id: null,
        operation_id: null,
        actor: { id: 1, nickname: 'admin' },
        via: 'console',
        note: '',
      } as never);
    incidents.push(raw);
  };
  const at = (day: string, h: number) => dayStart(day, zone) + h * HOUR;
  await incident(siteA, 2, {
    site: siteA.id,
    opened_at: at(DAYS[1], 17),
    acknowledged_at: at(DAYS[1], 17) + 10 * 60_000,
    resolved_at: at(DAYS[1], 18),
  });
  await incident(siteA, 2, {
    site: siteA.id,
    opened_at: at(DAYS[3], 17),
    acknowledged_at: null,
    resolved_at: at(DAYS[3], 20),
  });
  await incident(siteB, 1, {
    site: siteB.id,
    opened_at: at(DAYS[5], 9),
    acknowledged_at: at(DAYS[5], 9) + 25 * 60_000,
    resolved_at: at(DAYS[5], 9) + 30 * 60_000,
  });

  // One bank account's days: 2,880 polls a day, the first day's lags slow, two statements, one difference.
  for (const [d, day] of DAYS.entries()) {
    const dayLags = d === 0 ? [2_000, 2_000, 300_000] : [1_500, 2_500];
    lags.push(...dayLags);
    const lag: Record<string, number> = {};
    for (const ms of dayLags) lag[`l${sketchBucket(ms)}`] = (lag[`l${sketchBucket(ms)}`] ?? 0) + 1;
    await bankStore().addDayFigures(day, bankAccount, {
      polls: dayLags.length,
      polls_failed: d === 0 ? 1 : 0,
      statements: 2,
      unreconciled: d === 2 ? 1 : 0,
      wh_sent: 3,
      wh_failed: d === 4 ? 1 : 0,
      tg_sent: 2,
      tg_failed: d === 6 ? 2 : 0,
      ...lag,
    } as never);
  }

  const created = await api('post', '/reports', { period: 'week', start: WEEK });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  reportId = created.body.data.id;
  rcu = Number(created.headers['x-consumed-rcu']);
  report = (await api('get', `/reports/${reportId}`)).body.data;
}, 180_000);

afterAll(async () => {
  await api('delete', `/maintenance/${windowId}`);
  await k.destroy();
});

describe('a week with failures, a maintenance window and incidents', () => {
  it('names its period: Monday to Sunday inclusive, in the configured zone, made by hand and not sent', () => {
    expect(report).toMatchObject({
      id: reportId,
      period: 'week',
      start: '2025-01-06',
      end: '2025-01-12',
      time_zone: zone,
      generated_by: { nickname: expect.any(String) },
      sent_to: [],
    });
  });

  it('counts each site and process as the raw subtasks do', () => {
    for (const site of [siteA, siteB]) {
      const row = report.sites.find((s) => s.site_id === site.id);
      expect(row, site.name).toBeDefined();
      const mine = raw.filter((s) => s.site_id === site.id);
      for (const process of [...new Set(mine.map((s) => s.process))]) {
        const subs = mine.filter((s) => s.process === process);
        const passes = subs.filter((s) => s.status === RunStatus.values.Done);
        const got = row?.processes.find((p) => p.process === process);
        expect(got).toMatchObject({
          runs: subs.length,
          passed: passes.length,
          failed: subs.length - passes.length,
          flaky: subs.filter((s) => s.flaky).length,
          degraded: subs.filter((s) => s.degraded).length,
          maintenance_runs: 0,
        });
        expect(got?.success_rate).toBeCloseTo(passes.length / subs.length, 6);
        expect(got?.flaky_rate).toBeCloseTo(subs.filter((s) => s.flaky).length / subs.length, 6);
        // The rollups keep durations in a sketch whose buckets are 20 % wide: ±10 % of the exact value.
        const durations = passes.map((s) => s.duration_ms);
        expect(Math.abs((got?.p50_ms ?? 0) / quantile(durations, 0.5) - 1)).toBeLessThanOrEqual(0.1);
        expect(Math.abs((got?.p95_ms ?? 0) / quantile(durations, 0.95) - 1)).toBeLessThanOrEqual(0.1);
      }
      expect(row?.total.runs).toBe(mine.length);
    }
    // Process 2 of site A failed 8 of 84: the worst row of the week.
    const a2 = report.sites.find((s) => s.site_id === siteA.id)?.processes.find((p) => p.process === 2);
    expect(a2).toMatchObject({ runs: 84, failed: 8 });
  });

  it('shows the maintenance window’s time on the site it covers, and none on the other', () => {
    const mine = report.maintenance.find((m) => m.window_id === windowId);
    expect(mine).toMatchObject({ mode: 'pause', sites: [siteA.id], minutes: 120 });
    // Another test's window for every site, if one was enabled meanwhile, adds to both.
    const others = report.maintenance.filter((m) => m.window_id !== windowId && m.sites === 'all');
    if (others.length === 0) {
      expect(report.sites.find((s) => s.site_id === siteA.id)?.maintenance_minutes).toBe(120);
      expect(report.sites.find((s) => s.site_id === siteB.id)?.maintenance_minutes).toBe(0);
    }
  });

  it('draws the heatmap over the seven days with each site’s runs and failures', () => {
    expect(report.heatmap.dates).toEqual(DAYS);
    const a = report.heatmap.sites.find((s) => s.site_id === siteA.id);
    const byDay = (site: number, status?: number) =>
      DAYS.map(
        (day) =>
          raw.filter(
            (s) =>
              s.site_id === site &&
              s.end_at >= dayStart(day, zone) &&
              s.end_at < dayStart(day, zone) + 24 * HOUR &&
              (status === undefined || s.status === status),
          ).length,
      );
    expect(a?.runs).toEqual(byDay(siteA.id));
    expect(a?.failed).toEqual(byDay(siteA.id, RunStatus.values.Failed));
  });

  it('lists the incidents with their times to acknowledge and resolve, mean and worst', () => {
    const rows = report.incidents.rows.filter((r) => r.site_id === siteA.id || r.site_id === siteB.id);
    expect(rows).toHaveLength(3);
    const ack = incidents.filter((i) => i.acknowledged_at !== null).map((i) => (i.acknowledged_at ?? 0) - i.opened_at);
    const resolve = incidents.map((i) => i.resolved_at - i.opened_at);
    expect(rows.map((r) => r.ack_ms)).toEqual(
      incidents.map((i) => (i.acknowledged_at === null ? null : i.acknowledged_at - i.opened_at)),
    );
    expect(report.incidents).toMatchObject({
      ack_mean_ms: Math.round(ack.reduce((a, v) => a + v, 0) / ack.length),
      ack_worst_ms: Math.max(...ack),
      resolve_mean_ms: Math.round(resolve.reduce((a, v) => a + v, 0) / resolve.length),
      resolve_worst_ms: Math.max(...resolve),
      unresolved: 0,
    });
    expect(rows[0]).toMatchObject({ subject: siteA.name, process: 2, status: 4 });
  });

  it('sums the bank account’s days and its deliveries', () => {
    const account = report.bank.accounts.find((a) => a.account_id === bankAccount);
    expect(account).toMatchObject({
      polls: lags.length,
      polls_failed: 1,
      statements: 14,
      unreconciled: 1,
      stale_minutes: 0,
    });
    expect(account?.on_time_rate).toBeCloseTo(lags.filter((l) => l <= 60_000).length / lags.length, 6);
    expect(report.delivery.webhook).toMatchObject({ sent: 21, failed: 1 });
    expect(report.delivery.webhook.success_rate).toBeCloseTo(21 / 22, 6);
    expect(report.delivery.telegram).toEqual({ sent: 14, failed: 2 });
  });

  it('costs what it read, well inside the budget of a week', () => {
    // One small Query per live site of the shared stack, the account days, a page of incidents.
    expect(rcu).toBeGreaterThan(0);
    expect(rcu).toBeLessThanOrEqual(200);
  });
});

describe('the routes', () => {
  it('lists the report for a viewer, newest first, with x-consumed-rcu', async () => {
    const res = await api('get', '/reports?page_size=50', undefined, viewer);
    expect(res.status).toBe(200);
    expect(res.headers['x-consumed-rcu']).toBeDefined();
    const row = (res.body.data.result as ReportRow[]).find((r) => r.id === reportId);
    expect(row).toMatchObject({ period: 'week', start: WEEK, end: '2025-01-12', sent_to: [] });
    expect(row).not.toHaveProperty('sites');
  });

  it('serves the CSV with a file name, its sections and a site’s row', async () => {
    const res = await api('get', `/reports/${reportId}/csv`, undefined, viewer);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="patrol-report-week-2025-01-06.csv"');
    const text = String(res.body);
    for (const section of ['Sites', 'Maintenance windows', 'Incidents', 'Bank accounts', 'Deliveries'])
      expect(text).toContain(`\r\n${section}\r\n`);
    expect(text).toContain(`${siteA.name},Place Bets,84,76,8,`);
  });

  it('refuses a viewer’s Generate now, a period not over, a week not from Monday, and a bad date', async () => {
    expect((await api('post', '/reports', { period: 'week', start: WEEK }, viewer)).status).toBe(403);
    // Today in the configured zone (not UTC's: Yangon's day starts 6.5 hours earlier).
    const { dayOf } = await import('../../shared/calendarDay.js');
    const today = dayOf(Date.now(), zone);
    expect(await api('post', '/reports', { period: 'day', start: today })).toMatchObject({
      status: 400,
      body: { code: 4004, extra: { start: expect.stringMatching(/ended/) } },
    });
    expect(await api('post', '/reports', { period: 'week', start: '2025-01-07' })).toMatchObject({
      status: 400,
      body: { extra: { start: 'A week starts on a Monday: give that Monday as start' } },
    });
    for (const start of ['', 'abc', '2025-13-45', '2025-02-30'])
      expect((await api('post', '/reports', { period: 'day', start })).status, start).toBe(400);
    expect((await api('post', '/reports', { period: 'year', start: WEEK })).body).toMatchObject({
      extra: { period: 'period must be day, week or month' },
    });
  });

  it('answers 404 with code 40422 for an unknown report', async () => {
    for (const path of ['', '/csv', '/pdf'])
      expect(await api('get', `/reports/987654321${path}`, undefined, viewer)).toMatchObject({
        status: 404,
        body: { code: 40422 },
      });
  });
});
