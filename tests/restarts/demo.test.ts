import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import type { HeatmapCell, ScorecardRow } from '../../shared/schemas/dashboard.js';
import { DEMO_TELEGRAM } from '../../scripts/local/demo.js';
import { type LocalStack, startLocalStack } from '../../scripts/local/stack.js';
import { api, type Json, login } from '../helpers/api.js';

// Its own stack with demo data in this worker process: the project's shared stack runs without.
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-demo-'));
const ADMIN_PASSWORD = 'demo-test-pass-1';
let stack: LocalStack | undefined;
let token: string;

const start = () =>
  startLocalStack({ dataDir, port: 0, demo: true, quiet: true, adminPassword: ADMIN_PASSWORD, secondFactor: 'off' });
const get = async (path: string) => {
  const res = await api((stack as LocalStack).url).get(`/api/v1${path}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Json;
};

async function waitForOperationEnd(id: number, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const detail = await get(`/operations/${id}/tasks`);
    if ([RunStatus.values.Done, RunStatus.values.Failed].includes(detail.operation.status)) return detail;
    if (Date.now() > until) throw new Error(`demo operation still ${detail.operation.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  stack = await start();
  token = await login(stack.url, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a first start with demo data', () => {
  it('shows the sandbox sites with their accounts, one of them disabled', async () => {
    const sites = (await get('/sites?page_size=0')).result as Json[];
    const byName = new Map(sites.map((s) => [s.name, s]));
    expect([...byName.keys()].sort()).toEqual(
      ['Sandbox Agent A', 'Sandbox Agent B', 'Sandbox Disabled Agent', 'Sandbox Locked Agent'].sort(),
    );
    for (const s of sites) expect(s.url).toBe(stack?.sandboxSiteUrl);
    expect(byName.get('Sandbox Disabled Agent').enable).toBe(false);
    expect(byName.get('Sandbox Agent A')).toMatchObject({ enable: true, available_account_cnt: 2, control: true });

    const accounts = await get(`/sites/${byName.get('Sandbox Agent A').id}/accounts`);
    expect(accounts.map((a: Json) => a.user).sort()).toEqual(['agent01', 'agent02']);
    expect(accounts[0]).not.toHaveProperty('pwd');
    expect((await get(`/sites/accounts/${accounts[0].id}/pwd`)).pwd).toBe('sandbox123');
    const locked = await get(`/sites/${byName.get('Sandbox Locked Agent').id}/accounts`);
    expect(locked.map((a: Json) => a.user)).toEqual(['locked01']);
  });

  it('has a demo check in Operations that passes one site and shows why the locked one failed', async () => {
    const ops = await get('/operations');
    expect(ops.total_count).toBe(1);
    expect(ops.result[0]).toMatchObject({ remark: 'Demo check', task_total: 2 });

    const detail = await waitForOperationEnd(ops.result[0].id);
    expect(detail.operation).toMatchObject({ status: RunStatus.values.Failed, task_done: 2, task_failed: 1 });
    const task = (name: string) => detail.tasks.find((t: Json) => t.site.name === name);
    expect(task('Sandbox Agent A')).toMatchObject({ task_total: 2, task_done: 2, task_failed: 0 });
    expect(task('Sandbox Locked Agent')).toMatchObject({ task_total: 2, task_failed: 2 });

    const subtasks = (
      await get(`/check/subtasks?page_size=0&task_id=${encodeURIComponent(`=-${task('Sandbox Locked Agent').id}`)}`)
    ).result as Json[];
    expect(subtasks.map((s) => s.msg).join('\n')).toContain('Account is locked');

    // The demo's Telegram settings put the locked site's incident, its one message, on a sandbox chat.
    const chat = DEMO_TELEGRAM.checkChat;
    let messages: Json[] = [];
    // Sent after the group wait (alerts.group_wait_seconds, 30 s from the failure: issue 45).
    for (let until = Date.now() + 60_000; Date.now() < until && !messages.length; ) {
      await new Promise((r) => setTimeout(r, 300));
      messages = (await (await fetch(`${stack?.sandboxTelegramUrl}/sandbox/messages?chat_id=${chat}`)).json()).messages;
    }
    expect(messages).toHaveLength(1);
    expect(messages[0].text).toContain('Failing: incident');
    expect(messages[0].text).toContain('Sandbox Locked Agent');
    expect(messages[0].text).toContain('Account is locked');
  });
});

describe('the home dashboard on a first start', () => {
  it('has the weekly demo rule on the calendar and the demo check on the scorecard and heatmap', async () => {
    const rules = (await get('/auto-check/rules?page_size=0')).result as Json[];
    expect(rules.map((r) => r.name)).toEqual(['Demo weekly check']);
    expect(rules[0].sites).toHaveLength(3);
    const calendar = await get('/auto-check/calendar');
    // Twice a day, every day: Next runs always has a slot within 24 hours.
    expect(calendar.cells).toHaveLength(14);

    // The demo check ended above: its subtasks are on the dashboard.
    const rows = (await get('/dashboard/scorecard')).result as ScorecardRow[];
    const bySite = (name: string) => rows.filter((r) => r.site_name === name);
    expect(bySite('Sandbox Agent A').map((r) => [r.process, r.last_status])).toEqual([
      [1, RunStatus.values.Done],
      [4, RunStatus.values.Done],
    ]);
    // The locked site's login ran and failed; its fix-bets check never ran (the login failed first).
    expect(bySite('Sandbox Locked Agent').map((r) => [r.process, r.last_status])).toEqual([
      [1, RunStatus.values.Failed],
    ]);
    const heat = (await get('/dashboard/heatmap')).result as HeatmapCell[];
    expect(heat.length).toBe(2);
  });
});

describe('the demo bank accounts', () => {
  it('are enabled with their sub-accounts, and a sandbox transaction shows as a statement within one poll', async () => {
    const accounts = (await get('/bank/bank-accounts?page_size=0')).result as Json[];
    expect(accounts.map((a) => a.user).sort()).toEqual(['aya.demo', 'kbz.demo']);
    for (const a of accounts) expect(a).toMatchObject({ status: 1, monitor_interval: 10, monitor_range: [[0, 86400]] });
    const kbz = accounts.find((a) => a.user === 'kbz.demo');
    const detail = await get(`/bank/bank-accounts/${kbz.id}`);
    expect(detail.subs.length).toBeGreaterThan(0);
    const sub = detail.subs[0];

    const sent = Date.now();
    const res = await fetch(`${stack?.sandboxBankUrl}/__sandbox/bank/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bank: 'kbz', user: 'kbz.demo', no: sub.no, amount: 4321 }),
    });
    expect(res.status).toBe(200);
    const until = Date.now() + 75_000;
    for (;;) {
      const rows = (await get(`/bank/statements?page_size=100&sub_account_id=${encodeURIComponent(`=-${sub.id}`)}`))
        .result as Json[];
      if (rows.some((r) => r.amount === 4321)) break;
      if (Date.now() > until) throw new Error('no statement from the scheduled polls');
      await new Promise((r) => setTimeout(r, 500));
    }
    // The dispatcher's first window starts with the stack; a poll is due every 10 s after that.
    expect(Date.now() - sent).toBeLessThan(75_000);
    // Its notification reaches the sandbox webhook receiver, with the demo account's API key.
    const hook = `${stack?.sandboxWebhookUrl}/sandbox/hooks/kbz.demo/requests`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const got = (await (await fetch(hook)).json()) as { headers: Record<string, string>; body: string }[];
      const delivery = got.find((r) => String(JSON.parse(r.body).content?.amount).replace('-', '') === '4321.00');
      if (delivery) {
        expect(delivery.headers).toMatchObject({ 'x-api-key': 'demo-key-kbz.demo' });
        expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`no delivery on the sandbox receiver: ${JSON.stringify(got).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });
});

describe('single sign-on in the demo', () => {
  it('points at the sandbox provider: the login page offers it, for the demo operator', async () => {
    expect(await get('/auth/sso')).toEqual({ enabled: true, display_name: 'Sandbox SSO' });
    const config = await get('/super/system-config');
    expect(config.document.sso).toMatchObject({ issuer: stack?.sandboxOidcUrl, client_id: 'patrol-local' });
    const users = (await get('/super/users?page_size=0')).result as Json[];
    expect(users.find((u) => u.username === 'operator1')).toMatchObject({ role: 'operator' });
  });
});

describe('a second start on the same data', () => {
  it('adds no demo sites or checks again, and the sites follow the sandbox to its new address', async () => {
    const before = (await get('/sites?page_size=0')).total_count;
    const oidcBefore = stack?.sandboxOidcUrl as string;
    await stack?.stop();
    // The sandbox provider's port taken meanwhile: it starts elsewhere, and the SSO config follows it.
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(Number(new URL(oidcBefore).port), '127.0.0.1', () => r()));
    try {
      stack = await start();
    } finally {
      squatter.close();
    }
    token = await login(stack.url, 'admin', ADMIN_PASSWORD);
    expect(stack.sandboxOidcUrl).not.toBe(oidcBefore);

    const sites = (await get('/sites?page_size=0')).result as Json[];
    expect(sites.length).toBe(before);
    expect(new Set(sites.map((s) => s.name)).size).toBe(sites.length);
    for (const s of sites) expect(s.url).toBe(stack.sandboxSiteUrl);
    expect((await get('/operations')).total_count).toBe(1);
    // The config names the provider wherever it now is.
    expect((await get('/super/system-config')).document.sso.issuer).toBe(stack.sandboxOidcUrl);
    expect((await get('/auth/sso')).enabled).toBe(true);
  });
});
