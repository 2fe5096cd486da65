// The home dashboard end to end (issue 26): after real checks of sandbox sites (one passing, one
// locked, one that fails its first login once) and a weekly rule, the home page shows every panel
// in English and Chinese, a Health cell opens its subtasks, the compare view plays both runs, and
// the wall screen shows the panels without the menus.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { api, login as apiLogin } from '../helpers/api.js';
import { uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';
import { join } from 'node:path';
import { browserSession, SCREENSHOT_DIR, screenshot, shows } from './helpers.js';

const stack = inject('stack');
const SANDBOX = stack.env.SANDBOX_SITE_URL;
const session = browserSession(stack.url);
const client = api(stack.url);
let token: string;
const sites: Record<'good' | 'locked' | 'flaky', { id: number; name: string }> = {} as never;
/** The second, passing login check of the good site: the compare view has a pass before it. */
let secondLogin: number;

const PANELS = ['Health', 'History', 'Timings', 'Next runs', 'Bank', 'Delivery'];

async function check(siteIds: number[]): Promise<number> {
  const op = await client.post('/api/v1/sites/check', {
    token,
    body: { sites: siteIds, points: [{ point: 1, modes: [1] }] },
  });
  expect(op.status, JSON.stringify(op.body)).toBe(200);
  await until(
    `operation ${op.body.data.id} to end`,
    async () => (await client.get(`/api/v1/operations/${op.body.data.id}`, { token })).body.data.status,
    (s) => s === RunStatus.values.Done || s === RunStatus.values.Failed,
    { ms: 150_000, everyMs: 500 },
  );
  return op.body.data.id;
}

beforeAll(async () => {
  token = await apiLogin(stack.url, 'admin', stack.adminPassword);
  const flakyUser = uniqueName('flk')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 16);
  for (const [key, user] of [
    ['good', 'agent01'],
    ['locked', 'locked01'],
    ['flaky', flakyUser],
  ] as const) {
    const res = await client.post('/api/v1/sites', {
      token,
      body: { name: uniqueName(`Home ${key} `), url: SANDBOX, accounts: [{ user, pwd: 'sandbox123' }] },
    });
    sites[key] = res.body.data;
  }
  await fetch(`${SANDBOX}/__sandbox/behaviour`, {
    method: 'POST',
    body: JSON.stringify({ failure: 'http500', user: flakyUser, process: 1, times: 1 }),
  });
  await check([sites.good.id, sites.locked.id, sites.flaky.id]);
  const again = await check([sites.good.id]);
  secondLogin = (await client.get(`/api/v1/check/subtasks?operation_id==-${again}`, { token })).body.data.result[0].id;
  const rule = await client.post('/api/v1/auto-check/rules', {
    token,
    body: {
      name: uniqueName('Home rule '),
      sites: [sites.good.id],
      points: [{ point: 1, modes: [1] }],
      times: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, times: ['06:00', '18:00'] })),
    },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(200);
}, 360_000);

describe('the home page', () => {
  it('shows every panel with the checks, in English and in Chinese', async () => {
    const page = await session.signedIn('admin', stack.adminPassword);
    await page.goto('/');
    for (const name of PANELS) await shows(page.getByRole('region', { name }));
    const health = page.getByRole('region', { name: 'Health' });
    await shows(health.getByRole('button', { name: `${sites.locked.name} · Login Account (D4)` }));
    await expect.poll(() => health.getByText('0%').count()).toBeGreaterThan(0);
    await shows(page.getByRole('region', { name: 'Next runs' }).getByText('Sites: 1'));
    await screenshot(page, 'home-en');
    // The panels below the fold (the shell scrolls its content, not the page).
    await page.getByRole('region', { name: 'Delivery' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'home-en-lower');

    await page.evaluate(() => localStorage.setItem('patrol.locale', 'zh'));
    await page.reload();
    for (const name of ['健康状况', '历史', '耗时', '即将运行', '银行', '推送'])
      await shows(page.getByRole('region', { name }));
    await screenshot(page, 'home-zh');
  });

  it('opens the subtasks of a Health cell', async () => {
    const page = await session.signedIn('admin', stack.adminPassword);
    await page.goto('/');
    await page.getByRole('button', { name: `${sites.flaky.name} · Login Account (D4)` }).click();
    await page.waitForURL(/\/tasks\/subtasks\?site_id=\d+&process=1&mode=1/);
    const table = page.getByRole('table').first();
    await shows(table.getByText(sites.flaky.name));
    await shows(table.getByText('Flaky'));
    expect(await table.getByText(sites.good.name).count()).toBe(0);
  });

  it('compares a run with the last pass, both videos side by side', async () => {
    const page = await session.signedIn('admin', stack.adminPassword);
    await page.goto(`/tasks/subtasks/${secondLogin}/compare`);
    await shows(page.getByText('Last pass').first());
    await expect.poll(() => page.locator('video').count()).toBe(2);
    await shows(page.getByRole('table', { name: 'Steps' }).getByText('POST /api/login'));
    await screenshot(page, 'compare');
  });

  it('wall-screen mode shows the panels without the menus', async () => {
    const page = await session.signedIn('admin', stack.adminPassword);
    await page.goto('/?tv=1');
    await shows(page.getByRole('region', { name: 'Health' }));
    await shows(page.getByText('Wall screen: refreshes every 30 s, failing sites first.'));
    expect(await page.getByRole('navigation', { name: 'Main menu' }).count()).toBe(0);
    // Failing sites first: the locked site's row comes before the others.
    const health = page.getByRole('region', { name: 'Health' });
    await shows(health.getByRole('rowheader', { name: sites.good.name }));
    const rows = await health.getByRole('rowheader').allTextContents();
    expect(rows.indexOf(sites.locked.name)).toBeLessThan(rows.indexOf(sites.good.name));
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'wall.png'), fullPage: true });
  });
});
