// GET /dashboard/bank and /dashboard/delivery through the local stack (issue 26 item 5): the
// fields the home page's Bank and Delivery panels read, the read units in x-consumed-rcu, and the
// window checked (`hours` 1 to 720, 400 naming it otherwise).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { kit } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
let token: string;
const get = (path: string) => k.client.get(`/api/v1${path}`, { token });

beforeAll(async () => {
  token = await k.admin();
});
afterAll(() => k.destroy());

describe('the bank and delivery dashboards', () => {
  it('answers the bank panel with every field and its read units', async () => {
    const res = await get('/dashboard/bank?hours=24');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(
      [
        'accounts_by_status',
        'days',
        'from',
        'hours',
        'last_statement_at',
        'poll_lag_p95_ms',
        'polls',
        'polls_failed',
        'stale',
        'statements',
        'to',
        'unreconciled',
      ].sort(),
    );
    expect(res.body.data.accounts_by_status.map((s: { status: number }) => s.status)).toEqual([1, 2, 3, 9, 99]);
    expect(res.body.data.statements).toMatchObject({ total: expect.any(Number), per_hour: expect.any(Array) });
    expect(res.body.data.unreconciled).toMatchObject({ count: expect.any(Number) });
    expect(Number(res.headers['x-consumed-rcu'])).toBeGreaterThan(0);
    // Without hours: the last 24.
    expect((await get('/dashboard/bank')).body.data.hours).toBe(24);
  });

  it('answers the delivery panel with webhook and Telegram outcomes', async () => {
    const res = await get('/dashboard/delivery?hours=24');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      hours: 24,
      webhook: {
        sent: expect.any(Number),
        failed: expect.any(Number),
        paused_endpoints: expect.any(Array),
      },
      telegram: { sent: expect.any(Number), failed: expect.any(Number) },
    });
    expect(res.headers['x-consumed-rcu']).toBeDefined();
  });

  it('refuses a window that is no whole number of hours from 1 to 720 with 400 naming it', async () => {
    for (const hours of ['0', '721', '1.5', 'day']) {
      for (const panel of ['bank', 'delivery']) {
        const res = await get(`/dashboard/${panel}?hours=${hours}`);
        expect(res.status, `${panel} ${hours}`).toBe(400);
        expect(res.body.extra).toEqual({ hours: 'hours must be a whole number from 1 to 720' });
      }
    }
  });

  it('is for signed-in users only', async () => {
    expect((await k.client.get('/api/v1/dashboard/bank')).status).toBe(401);
  });
});
