// Maintenance windows through the API (issue 27, item 3): the list protocol, CRUD with the texts
// of shared/schemas/maintenance.ts, the one-click window of a site, and the calendar's bands.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { kit, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
const call = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) =>
  client[method](`/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
let siteId: number;
let siteName: string;

beforeAll(async () => {
  token = await k.admin();
  siteName = uniqueName('Maint site ');
  const site = await call('post', '/sites', {
    name: siteName,
    url: 'https://maint.example.test',
    accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
  });
  siteId = site.body.data.id;
});
afterAll(() => k.destroy());

describe('maintenance windows', () => {
  it('refuses a window with what is wrong, field by field, and keeps nothing', async () => {
    const before = (await call('get', '/maintenance?page_size=0')).body.data.total_count;
    const cases: [unknown, Record<string, string>][] = [
      [
        { name: ' ', sites: [], mode: 'pause', kind: 'once', start_at: 2000, end_at: 1000 },
        { name: 'Please enter window name', sites: 'Please select sites first' },
      ],
      [
        { name: 'w', sites: 'all', mode: 'pause', kind: 'once', start_at: 2000, end_at: 1000 },
        { end_at: 'The end must be after the start' },
      ],
      [
        { name: 'w', sites: 'all', mode: 'loud', kind: 'weekly', days: [1], start_time: '25:00', end_time: '09:00' },
        { mode: 'Mode must be pause or silent', start_time: 'Use a 24-hour time HH:mm' },
      ],
      [
        { name: 'w', sites: 'all', mode: 'pause', kind: 'weekly', days: [], end_time: '09:00' },
        { days: 'Choose at least one weekday', start_time: 'Use a 24-hour time HH:mm' },
      ],
      [
        { name: 'w', sites: 'all', mode: 'silent', kind: 'weekly', days: [8], start_time: '09:00', end_time: '09:00' },
        { 'days.0': 'Weekday must be 1 (Monday) to 7 (Sunday)', end_time: 'The start and the end must differ' },
      ],
      [
        { name: 'w', sites: [987654321], mode: 'pause', kind: 'once', start_at: 1, end_at: 2 },
        { sites: 'Site 987654321 does not exist' },
      ],
    ];
    for (const [body, extra] of cases) {
      const res = await call('post', '/maintenance', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.extra).toMatchObject(extra);
    }
    expect((await call('get', '/maintenance?page_size=0')).body.data.total_count).toBe(before);
  });

  it('keeps a window, lists it with the list protocol, edits, switches and deletes it', async () => {
    const name = uniqueName('Nightly deploy ');
    const created = await call('post', '/maintenance', {
      name: ` ${name} `,
      sites: [siteId, siteId],
      mode: 'silent',
      kind: 'weekly',
      days: [5, 1],
      start_time: '23:00',
      end_time: '01:00',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const w = created.body.data;
    expect(w).toMatchObject({
      name,
      sites: [siteId],
      mode: 'silent',
      kind: 'weekly',
      days: [1, 5],
      start_time: '23:00',
      end_time: '01:00',
      start_at: null,
      enabled: true,
      creator: { nickname: 'admin' },
    });
    expect(typeof w.next_start).toBe('number');

    const page = await call('get', `/maintenance?keyword=${encodeURIComponent(name)}&keywordField=name&enabled=true`);
    expect(page.status).toBe(200);
    expect(page.body.data.result.map((r: { id: number }) => r.id)).toEqual([w.id]);

    const edited = await call('put', `/maintenance/${w.id}`, {
      name,
      sites: 'all',
      mode: 'pause',
      kind: 'once',
      start_at: Date.now() - 60_000,
      end_at: Date.now() + 60_000,
    });
    expect(edited.body.data).toMatchObject({ sites: 'all', kind: 'once', days: null, start_time: null, active: true });
    const off = await call('put', `/maintenance/${w.id}`, { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, active: false, next_start: null });
    expect((await call('delete', `/maintenance/${w.id}`)).status).toBe(200);
    expect(await call('get', `/maintenance/${w.id}`)).toMatchObject({
      status: 404,
      body: { code: ErrorCode.MaintenanceNotFound },
    });
  });

  it('starts a site’s window now for one hour in one call, and shows it on the calendar', async () => {
    const before = Date.now();
    const res = await call('post', '/maintenance/now', { site_id: siteId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const w = res.body.data;
    expect(w).toMatchObject({
      name: `${siteName}: maintenance 1 h`,
      sites: [siteId],
      mode: 'pause',
      kind: 'once',
      active: true,
    });
    expect(w.start_at).toBeGreaterThanOrEqual(before);
    expect(w.end_at - w.start_at).toBe(3_600_000);

    const calendar = (await call('get', '/auto-check/calendar')).body.data;
    const bands = calendar.maintenance.filter((b: { window_id: number }) => b.window_id === w.id);
    // One hour, on one day or two when it crosses midnight (or the week's end, where it is cut).
    const minutes = bands.reduce((n: number, b: { start: number; end: number }) => n + b.end - b.start, 0);
    expect(minutes).toBeGreaterThan(0);
    expect(minutes).toBeLessThanOrEqual(61);
    // A one-off window's bands are of this week alone (a weekly one's recur).
    expect(bands.every((b: { kind: string }) => b.kind === 'once')).toBe(true);
    expect(typeof calendar.week_start).toBe('number');

    expect((await call('post', '/maintenance/now', { site_id: 987654321 })).body.extra).toEqual({
      site_id: 'Site 987654321 does not exist',
    });
    await call('delete', `/maintenance/${w.id}`);
  });
});
