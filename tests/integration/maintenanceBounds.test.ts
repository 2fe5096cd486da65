// Maintenance windows and the dashboard's timings against the holes of issue 43 (item 4), through the
// running stack: a window's length and end are bounded, a one-off window is retired at its end, only
// so many are enabled at once, creation is limited per user, and timings of no site keep nothing.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let admin: string;
let siteId: number;
const made: number[] = [];

const api = (method: 'get' | 'put' | 'post' | 'delete', path: string, body?: unknown, token = admin) =>
  client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

const once = (start_at: number, end_at: number, over: Record<string, unknown> = {}) => ({
  name: uniqueName('Bounded '),
  sites: [siteId],
  mode: 'silent',
  kind: 'once',
  start_at,
  end_at,
  ...over,
});

async function create(body: Record<string, unknown>, token = admin) {
  const res = await api('post', '/maintenance', body, token);
  if (res.status === 200) made.push(res.body.data.id);
  return res;
}

let modules: {
  service: typeof import('../../functions/maintenance/service.js');
  store: typeof import('../../functions/maintenance/store.js');
};

beforeAll(async () => {
  admin = await k.admin();
  const site = await api('post', '/sites', {
    name: uniqueName('Maintenance bounds '),
    url: stack.env.SANDBOX_SITE_URL,
    accounts: [{ user: uniqueName('agent'), pwd: 'sandbox123' }],
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  siteId = site.body.data.id;
  // The maintenance code in this process, on the stack's engines (to fill the enabled windows quickly).
  Object.assign(process.env, stack.env);
  (await import('../../functions/lib/aws/clients.js')).resetClients();
  modules = {
    service: await import('../../functions/maintenance/service.js'),
    store: await import('../../functions/maintenance/store.js'),
  };
});

afterAll(async () => {
  for (const id of made) await api('delete', `/maintenance/${id}`);
  k.destroy();
});

describe('a maintenance window', () => {
  it('lasts at most maintenance.max_days (7 by default) and ends at most a year ahead', async () => {
    const now = Date.now();
    const long = await create(once(now, now + 7 * DAY + HOUR));
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: ErrorCode.Validation, extra: { end_at: 'A window lasts at most 7 days' } });

    // The hole's own body: every site paused until the end of time.
    const forever = await create({ ...once(now, 9_007_199_254_740_991), sites: 'all', mode: 'pause' });
    expect(forever.status).toBe(400);

    const far = await create(once(now + 365 * DAY, now + 366 * DAY));
    expect(far.status).toBe(400);
    expect(far.body.extra).toEqual({ end_at: 'A window ends at most a year ahead' });

    // An edit is held to the same bounds.
    const ok = await create(once(now + HOUR, now + 7 * DAY));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const edited = await api('put', `/maintenance/${ok.body.data.id}`, once(now + HOUR, now + 9 * DAY));
    expect(edited.status).toBe(400);
    expect((await api('get', `/maintenance/${ok.body.data.id}`)).body.data.end_at).toBe(now + 7 * DAY);
  });

  it('takes its longest length from the system config', async () => {
    const state = (await api('get', '/super/system-config')).body.data;
    const save = (days: number) =>
      api('post', '/super/system-config', { ...state.document, maintenance: { max_days: days } });
    expect((await save(2)).status).toBe(200);
    try {
      const now = Date.now();
      const res = await create(once(now, now + 3 * DAY));
      expect(res.body.extra).toEqual({ end_at: 'A window lasts at most 2 days' });
    } finally {
      expect((await save(7)).status).toBe(200);
    }
  });

  it('is retired at its end when one-off: disabled, kept as history', async () => {
    const now = Date.now();
    const past = await create(once(now - 2 * HOUR, now - HOUR));
    expect(past.status, JSON.stringify(past.body)).toBe(200);
    expect(past.body.data).toMatchObject({ enabled: true, active: false });
    // Anything that reads the windows in force (the calendar here) retires the ended ones it finds.
    expect((await api('get', '/auto-check/calendar')).status).toBe(200);
    const after = (await api('get', `/maintenance/${past.body.data.id}`)).body.data;
    expect(after).toMatchObject({
      id: past.body.data.id,
      enabled: false,
      start_at: now - 2 * HOUR,
      end_at: now - HOUR,
    });
  });
});

describe('enabled windows', () => {
  it('are at most 100 at once: one more is refused, by creation or by enabling', async () => {
    const now = Date.now();
    const off = await create(once(now + DAY, now + 2 * DAY, { enabled: false }));
    expect(off.status).toBe(200);
    const enabled = (await modules.store.maintenanceStore().enabled()).filter(
      (w) => w.kind !== 'once' || (w.end_at ?? 0) > Date.now(),
    );
    const fill = 100 - enabled.length;
    expect(fill).toBeGreaterThan(0);
    for (let n = 0; n < fill; n++) {
      const w = await modules.service.createMaintenance(
        once(now + DAY, now + 2 * DAY, { enabled: true }) as never,
        null,
      );
      made.push(w.id);
    }
    const refused = await create(once(now + DAY, now + 2 * DAY));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: ErrorCode.MaintenanceWindowLimit,
      msg: 'At most 100 maintenance windows can be enabled at once.',
    });
    const enabling = await api('put', `/maintenance/${off.body.data.id}`, { enabled: true });
    expect(enabling.status).toBe(400);
    expect((await api('get', `/maintenance/${off.body.data.id}`)).body.data.enabled).toBe(false);

    // Room again once one goes.
    const last = made.pop() as number;
    expect((await api('delete', `/maintenance/${last}`)).status).toBe(200);
    expect((await api('put', `/maintenance/${off.body.data.id}`, { enabled: true })).status).toBe(200);
    for (const id of made.splice(made.length - fill + 1)) await api('delete', `/maintenance/${id}`);
  });
});

describe('creating windows', () => {
  it('is limited per user: past 60 an hour, a 429 with Retry-After, and another user is not held back', async () => {
    const username = uniqueName('mntop');
    await k.createUser(username, 'operator-pass-1', 'operator');
    const token = await login(stack.url, username, 'operator-pass-1');
    // Every call counts, a refused body too (the budget is spent before the body is read).
    for (let n = 0; n < 60; n++) {
      const res = await api('post', '/maintenance', { name: '' }, token);
      expect(res.status).toBe(400);
    }
    const now = Date.now();
    const refused = await create(once(now + DAY, now + 2 * DAY, { enabled: false }), token);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(ErrorCode.TooManyRequests);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const quick = await api('post', '/maintenance/now', { site_id: siteId }, token);
    expect(quick.status).toBe(429);
    expect((await create(once(now + DAY, now + 2 * DAY, { enabled: false }))).status).toBe(200);
  });
});

describe('the Timings panel', () => {
  it('answers 404 for a site that does not exist, and 200 for one that does', async () => {
    const missing = await api('get', '/dashboard/timings?site_id=987654321');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(ErrorCode.SiteNotFound);
    const known = await api('get', `/dashboard/timings?site_id=${siteId}`);
    expect(known.status).toBe(200);
    expect(known.body.data.result).toEqual([]);
  });
});
