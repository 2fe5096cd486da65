import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { type HeatmapCell, heatmapCells, type ScorecardRow, scorecardRows } from '../../shared/schemas/dashboard.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';

// The check panels' API: validation, the read units header, and what one passing check of a new
// site adds to the scorecard, the heatmap and the site's timings.

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
const get = (path: string) => client.get(`/api/v1${path}`, { token });

beforeAll(async () => {
  token = await k.admin();
});
afterAll(() => k.destroy());

describe('validation', () => {
  it.each([
    ['/dashboard/scorecard?days=5', 'days must be 7, 30 or 90'],
    ['/dashboard/scorecard?days=abc', 'days must be 7, 30 or 90'],
    ['/dashboard/heatmap?days=0', 'days must be a whole number from 1 to 90'],
    ['/dashboard/heatmap?days=91', 'days must be a whole number from 1 to 90'],
    ['/dashboard/heatmap?shape=csv', 'shape must be rows or columns'],
    ['/dashboard/scorecard?shape=', 'shape must be rows or columns'],
    ['/dashboard/timings', 'site_id must be a site id'],
    ['/dashboard/timings?site_id=3&days=14', 'days must be 7, 30 or 90'],
  ])('answers 400 to %s', async (path, msg) => {
    const res = await get(path);
    expect(res).toMatchObject({ status: 400, body: { msg } });
  });

  it('answers 401 without a token', async () => {
    expect((await client.get('/api/v1/dashboard/scorecard')).status).toBe(401);
  });
});

describe('after a passing check of a new site', () => {
  let site: { id: number; name: string };
  /** Whether the check ran over a time budget another file left in the config: the panels say the same. */
  let degraded = 0;

  beforeAll(async () => {
    const res = await client.post('/api/v1/sites', {
      token,
      body: {
        name: uniqueName('Dash '),
        url: stack.env.SANDBOX_SITE_URL,
        accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
      },
    });
    site = res.body.data;
    // Before any check: nothing of this site anywhere.
    const empty = await get(`/dashboard/timings?site_id=${site.id}`);
    expect(empty).toMatchObject({ status: 200, body: { data: { result: [] } } });
    const op = await client.post(`/api/v1/sites/${site.id}/check`, {
      token,
      body: { points: [{ point: 1, modes: [1] }] },
    });
    await until(
      'the check to end',
      async () => (await get(`/operations/${op.body.data.id}`)).body.data.status,
      (s) => s === RunStatus.values.Done || s === RunStatus.values.Failed,
      { ms: 150_000, everyMs: 500 },
    );
    const [sub] = (await get(`/check/subtasks?operation_id==-${op.body.data.id}`)).body.data.result;
    expect(sub.status, sub.msg).toBe(RunStatus.values.Done);
    degraded = sub.degraded ? 1 : 0;
  }, 180_000);

  it('shows the site on the scorecard with its rates, timings and last result', async () => {
    for (const days of [7, 30, 90]) {
      const res = await get(`/dashboard/scorecard?days=${days}`);
      expect(res.status).toBe(200);
      expect(Number(res.headers['x-consumed-rcu'])).toBeGreaterThan(0);
      // One object per row by default; by columns on request, the same rows.
      const rows = res.body.data.result as ScorecardRow[];
      const byColumns = await get(`/dashboard/scorecard?days=${days}&shape=columns`);
      expect(scorecardRows(byColumns.body.data.result)).toEqual(rows);
      const row = rows.find((r) => r.site_id === site.id);
      expect(row).toMatchObject({
        site_id: site.id,
        site_name: site.name,
        process: 1,
        mode: 1,
        runs: 1,
        passed: 1,
        failed: 0,
        flaky: 0,
        degraded,
        pass_rate: 1,
        flake_rate: 0,
        last_status: RunStatus.values.Done,
      });
      expect(row?.p50_ms).toBeGreaterThan(0);
      expect(row?.p95_ms).toBeGreaterThanOrEqual(row?.p50_ms ?? Number.POSITIVE_INFINITY);
    }
  });

  it('shows one day of the site on the heatmap and in its timings', async () => {
    const heat = await get('/dashboard/heatmap');
    expect(Number(heat.headers['x-consumed-rcu'])).toBeGreaterThan(0);
    // One object per site-day with runs; by columns on request, over the window's 90 days (oldest first).
    const byColumns = (await get('/dashboard/heatmap?shape=columns')).body.data.result;
    expect(byColumns.dates).toHaveLength(90);
    expect(heatmapCells(byColumns)).toEqual(heat.body.data.result);
    const cells = (heat.body.data.result as HeatmapCell[]).filter((c) => c.site_id === site.id);
    expect(cells).toEqual([
      { site_id: site.id, date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), runs: 1, failed: 0, flaky: 0, degraded },
    ]);
    const timings = await get(`/dashboard/timings?site_id=${site.id}&days=7`);
    expect(timings.body.data.result).toEqual([
      { date: cells[0].date, process: 1, runs: 1, p50_ms: expect.any(Number), p95_ms: expect.any(Number) },
    ]);
  });
});
