import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';

// Retries, flaky and slow checks through the running stack: the sandbox site fails the first login
// of an account once (its behaviour switch with `times: 1`), and the checker, with Chromium, decides.

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const SANDBOX = stack.env.SANDBOX_SITE_URL;
const PASSWORD = 'sandbox123';
let token: string;
let original: Record<string, unknown>;

const get = (path: string) => client.get(`/api/v1${path}`, { token });
const configOf = async () => (await get('/super/system-config')).body.data.document;
async function configure(checker: Record<string, unknown>) {
  const document = await configOf();
  const saved = await client.post('/api/v1/super/system-config', {
    token,
    body: { ...document, checker: { ...document.checker, ...checker } },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  // The checker reads the config through a 5 s cache.
  await new Promise((r) => setTimeout(r, 5_500));
}

const accountName = (prefix: string) =>
  uniqueName(prefix)
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 20);

async function behaviour(rule: Record<string, unknown>) {
  const res = await fetch(`${SANDBOX}/__sandbox/behaviour`, { method: 'POST', body: JSON.stringify(rule) });
  expect(res.status).toBe(200);
}

interface SubtaskRow {
  id: number;
  status: number;
  msg: string;
  attempts: number | null;
  flaky: boolean;
  degraded: boolean;
  duration_ms: number | null;
  operation_id: number;
}

/** Checks the login of a new sandbox site with `user` and waits for its one subtask to end. */
async function loginCheck(user: string): Promise<SubtaskRow> {
  const site = await client.post('/api/v1/sites', {
    token,
    body: { name: uniqueName('Retry '), url: SANDBOX, accounts: [{ user, pwd: PASSWORD }] },
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  const op = await client.post(`/api/v1/sites/${site.body.data.id}/check`, {
    token,
    body: { points: [{ point: 1, modes: [1] }] },
  });
  expect(op.status, JSON.stringify(op.body)).toBe(200);
  const operationId = op.body.data.id;
  // The operation ends after its subtask's notification is written.
  await until(
    `operation ${operationId} to end`,
    async () => (await get(`/operations/${operationId}`)).body.data.status,
    (s) => s === RunStatus.values.Done || s === RunStatus.values.Failed,
    { ms: 150_000, everyMs: 500 },
  );
  const [sub] = (await get(`/check/subtasks?operation_id==-${operationId}`)).body.data.result;
  return sub;
}

/** The Subtask-category notifications written about one subtask. */
async function notificationsOf(sub: SubtaskRow) {
  const all = (await get('/notifications?page_size=0')).body.data.result as { category: number; caption: string }[];
  return all.filter((n) => n.category === 1 && n.caption === `Subtask ${sub.id} of operation ${sub.operation_id}`);
}

beforeAll(async () => {
  expect(SANDBOX, 'the stack runs the sandbox site').toBeTruthy();
  token = await k.admin();
  original = await configOf();
});
afterAll(async () => {
  await client.post('/api/v1/super/system-config', { token, body: original });
  // The next file's checks must not run on this file's budgets from the checker's 5 s cache.
  await new Promise((r) => setTimeout(r, 5_500));
  k.destroy();
});

describe('a login that fails once', () => {
  let sub: SubtaskRow;
  const user = accountName('flaky');

  beforeAll(async () => {
    await configure({ retries: 1, retry_on: ['timeout', 'network', 'http5xx'], time_budget_ms: {} });
    await behaviour({ failure: 'http500', user, process: 1, times: 1 });
    sub = await loginCheck(user);
  }, 180_000);

  it('ends Done on its second attempt, flaky, with no notification', async () => {
    expect(sub).toMatchObject({ status: RunStatus.values.Done, attempts: 2, flaky: true, degraded: false });
    expect(sub.msg).toContain('passed on attempt 2 (attempt 1: Site answered HTTP 500 to POST /api/login)');
    expect(await notificationsOf(sub)).toEqual([]);
  });

  it('lists both attempts, each with its own video and timings', async () => {
    const res = await get(`/check/subtasks/${sub.id}/attempts`);
    expect(res.status).toBe(200);
    const attempts = res.body.data as {
      attempt: number;
      success: boolean;
      failure_kind: string | null;
      steps: unknown[];
      video: { url: string } | null;
    }[];
    expect(attempts.map((a) => [a.attempt, a.success, a.failure_kind])).toEqual([
      [1, false, 'http5xx'],
      [2, true, null],
    ]);
    for (const a of attempts) expect(a.steps.length).toBeGreaterThan(0);
    const urls = attempts.map((a) => a.video?.url);
    expect(new Set(urls).size).toBe(2);
    for (const url of urls) {
      const video = await fetch(new URL(url!, stack.url));
      expect(video.status).toBe(200);
      expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it("keeps the failed attempt's evidence: a screenshot, the site's 500, and never the password", async () => {
    const res = await get(`/check/subtasks/${sub.id}/evidence`);
    expect(res.status).toBe(200);
    const { failures } = res.body.data;
    expect(failures).toHaveLength(1);
    const [failure] = failures;
    const shot = await fetch(new URL(failure.screenshot_url, stack.url));
    expect(shot.headers.get('content-type')).toContain('image/png');
    expect(
      Buffer.from(await shot.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(failure.failed_requests).toContainEqual(
      expect.objectContaining({ method: 'POST', url: `${SANDBOX}/api/login`, status: 500 }),
    );
    // The sandbox's login page logs what was submitted when a sign-in fails, password included.
    expect(failure.console_errors.join('\n')).toContain('Login failed for');
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    expect(JSON.stringify((await get(`/check/subtasks/${sub.id}/attempts`)).body)).not.toContain(PASSWORD);
  });
});

it('with retries 0 the same failure ends Failed with one notification', async () => {
  await configure({ retries: 0 });
  const user = accountName('noretry');
  await behaviour({ failure: 'http500', user, process: 1, times: 1 });
  const sub = await loginCheck(user);
  expect(sub).toMatchObject({ status: RunStatus.values.Failed, attempts: 1, flaky: false });
  expect(await notificationsOf(sub)).toHaveLength(1);
}, 180_000);

it('a pass slower than its process budget is degraded, not failed', async () => {
  await configure({ retries: 1, time_budget_ms: { '1': 2000 } });
  const user = accountName('slowpass');
  // Only the login call is slow: the check passes, 3 s past the 2 s budget.
  await behaviour({ failure: 'slow', user, process: 1, delayMs: 3000, times: 1 });
  const sub = await loginCheck(user);
  expect(sub).toMatchObject({ status: RunStatus.values.Done, attempts: 1, flaky: false, degraded: true });
  expect(sub.duration_ms).toBeGreaterThan(3000);
  expect(sub.msg).toMatch(/slow: \d+ ms over the 2000 ms budget/);
}, 180_000);
