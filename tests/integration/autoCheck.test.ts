import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OperationName } from '../../shared/enums.js';
import { RuleMessages } from '../../shared/schemas/autoCheck.js';
import { kit, uniqueName } from '../helpers/authKit.js';

// The auto-check rules API through the running stack (issue 14, item 1).

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;

const get = (path: string) => client.get(`/api/v1${path}`, { token });
const post = (path: string, body?: unknown) => client.post(`/api/v1${path}`, { token, body });
const put = (path: string, body: unknown) => client.put(`/api/v1${path}`, { token, body });

async function newSite() {
  const res = await post('/sites', {
    name: uniqueName('Rule site '),
    url: stack.env.SANDBOX_SITE_URL ?? 'https://rules.test',
    accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; name: string };
}

let siteA: { id: number; name: string };
let siteB: { id: number; name: string };
const validRule = () => ({
  name: uniqueName('Rule '),
  sites: [siteA.id, siteB.id],
  points: [{ point: 1, modes: [1] }],
  times: [{ day: 1, times: ['09:30'] }],
});

async function newRule(overrides: Record<string, unknown> = {}) {
  const res = await post('/auto-check/rules', { ...validRule(), ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

beforeAll(async () => {
  token = await k.admin();
  siteA = await newSite();
  siteB = await newSite();
});
afterAll(() => k.destroy());

describe('creating a rule', () => {
  it('answers the rule with points read as {process, modes}, the creator and the next run', async () => {
    const body = { ...validRule(), name: `  ${uniqueName('Trimmed ')}  ` };
    const res = await post('/auto-check/rules', body);
    expect(res.status).toBe(200);
    const rule = res.body.data;
    expect(rule).toMatchObject({
      name: body.name.trim(),
      sites: [siteA.id, siteB.id],
      checkpoints: { points: [{ process: 1, modes: [1] }] },
      times: [{ day: 1, times: ['09:30'] }],
      enable: true,
      creator: { nickname: expect.any(String) },
    });
    expect(rule.next_run).toBeGreaterThan(Date.now());
    expect(new Date(rule.next_run).getUTCMinutes() % 30).toBe(0);
    expect((await get(`/auto-check/rules/${rule.id}`)).body.data).toMatchObject({ id: rule.id, name: rule.name });
  });

  const bad: [string, Record<string, unknown>, string, string][] = [
    ['no name', { name: '   ' }, 'name', RuleMessages.name],
    ['no site', { sites: [] }, 'sites', RuleMessages.sites],
    ['a site that does not exist', { sites: [999_999_999] }, 'sites', RuleMessages.siteMissing(999_999_999)],
    ['no point', { points: [] }, 'points', RuleMessages.points],
    ['points without modes', { points: [{ point: 2, modes: [] }] }, 'points', RuleMessages.points],
    ['no times', { times: [] }, 'times', RuleMessages.times],
    ['a weekday without times', { times: [{ day: 2, times: [] }] }, 'times', RuleMessages.times],
    ['weekday 0', { times: [{ day: 0, times: ['09:00'] }] }, 'times.0.day', RuleMessages.badDay],
    ['weekday 8', { times: [{ day: 8, times: ['09:00'] }] }, 'times.0.day', RuleMessages.badDay],
    ['an empty time', { times: [{ day: 1, times: ['09:00', ''] }] }, 'times.0.times.1', RuleMessages.emptyTime],
    ['a 12-hour time', { times: [{ day: 1, times: ['9:30 PM'] }] }, 'times.0.times.0', RuleMessages.badTime],
    ['24:00', { times: [{ day: 1, times: ['24:00'] }] }, 'times.0.times.0', RuleMessages.badTime],
    [
      'a duplicate time on a day',
      { times: [{ day: 3, times: ['10:00', '10:00'] }] },
      'times.0.times.1',
      RuleMessages.duplicateTime('10:00'),
    ],
    [
      'a weekday twice',
      {
        times: [
          { day: 3, times: ['10:00'] },
          { day: 3, times: ['11:00'] },
        ],
      },
      'times.1.day',
      RuleMessages.duplicateDay(3),
    ],
  ];
  it.each(bad)('refuses %s with its text and writes nothing', async (_, override, field, message) => {
    const before = await get('/auto-check/rules?page_size=0');
    const res = await post('/auto-check/rules', { ...validRule(), ...override });
    expect(res.status).toBe(400);
    expect(res.body.extra[field]).toBe(message);
    expect(res.body.data).toBeUndefined();
    const after = await get('/auto-check/rules?page_size=0');
    expect(after.body.data.total_count).toBe(before.body.data.total_count);
  });

  it('refuses a deleted site', async () => {
    const gone = await newSite();
    await put(`/sites/${gone.id}`, { delete: 1 });
    const res = await post('/auto-check/rules', { ...validRule(), sites: [siteA.id, gone.id] });
    expect(res.status).toBe(400);
    expect(res.body.extra.sites).toBe(RuleMessages.siteMissing(gone.id));
  });

  it('gives an edit with a bad field that field text, not a generic one', async () => {
    const rule = await newRule();
    const res = await put(`/auto-check/rules/${rule.id}`, { ...validRule(), times: [{ day: 1, times: [''] }] });
    expect(res.status).toBe(400);
    expect(res.body.extra['times.0.times.0']).toBe(RuleMessages.emptyTime);
    expect((await get(`/auto-check/rules/${rule.id}`)).body.data.times).toEqual(rule.times);
  });
});

describe('the rules list', () => {
  it('follows the list protocol with the creator, and reports its read units', async () => {
    const rule = await newRule();
    const res = await get(`/auto-check/rules?keyword=${encodeURIComponent(rule.name)}&keywordField=name`);
    expect(res.status).toBe(200);
    expect(res.headers['x-consumed-rcu']).toMatch(/^\d+(\.\d+)?$/);
    expect(res.body.data).toMatchObject({ page: 1, page_size: 20, total_count: 1 });
    expect(res.body.data.result[0]).toMatchObject({ id: rule.id, creator: { nickname: expect.any(String) } });
  });

  it('filters by enable and shows a disabled rule without a next run', async () => {
    const rule = await newRule();
    const off = await put(`/auto-check/rules/${rule.id}`, { enable: false });
    expect(off.body.data).toMatchObject({ enable: false, next_run: null });
    const res = await get('/auto-check/rules?enable=false&page_size=0');
    expect(res.body.data.result.map((r: { id: number }) => r.id)).toContain(rule.id);
    const on = await get('/auto-check/rules?enable=true&page_size=0');
    expect(on.body.data.result.map((r: { id: number }) => r.id)).not.toContain(rule.id);
  });
});

describe('editing a rule', () => {
  it('replaces name, sites, points and times, and accepts points as read', async () => {
    const rule = await newRule();
    const res = await put(`/auto-check/rules/${rule.id}`, {
      name: 'Edited rule',
      sites: [siteB.id],
      points: rule.checkpoints.points,
      times: [{ day: 2, times: ['18:00', '07:00'] }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Edited rule',
      sites: [siteB.id],
      checkpoints: { points: [{ process: 1, modes: [1] }] },
      times: [{ day: 2, times: ['07:00', '18:00'] }],
    });
  });
});

describe('soft delete', () => {
  it('takes the rule out of every list, and get, check, items and edits answer 404', async () => {
    const rule = await newRule();
    const del = await put(`/auto-check/rules/${rule.id}`, { delete: 1 });
    expect(del.status).toBe(200);

    const list = await get('/auto-check/rules?page_size=0');
    expect(list.body.data.result.map((r: { id: number }) => r.id)).not.toContain(rule.id);
    const onlyOff = await get('/auto-check/rules?enable=true&page_size=0');
    expect(onlyOff.body.data.result.map((r: { id: number }) => r.id)).not.toContain(rule.id);

    for (const res of [
      await get(`/auto-check/rules/${rule.id}`),
      await post(`/auto-check/rules/${rule.id}/check`),
      await get(`/auto-check/rules/${rule.id}/items`),
      await get(`/auto-check/rules/${rule.id}/logs`),
      await put(`/auto-check/rules/${rule.id}`, { enable: true }),
      await put(`/auto-check/rules/${rule.id}`, { delete: 1 }),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { code: 4049 } });
    }
  });
});

describe('check now and items', () => {
  it('starts an AutoCheck operation on the sites that can be checked and says which it skipped', async () => {
    const disabled = await newSite();
    const deleted = await newSite();
    const rule = await newRule({ sites: [siteA.id, disabled.id, deleted.id] });
    await put(`/sites/${disabled.id}`, { enable: false });
    await put(`/sites/${deleted.id}`, { delete: 1 });

    const items = await get(`/auto-check/rules/${rule.id}/items`);
    expect(items.headers['x-consumed-rcu']).toBeDefined();
    expect(items.body.data.result).toEqual([
      expect.objectContaining({ id: siteA.id, name: siteA.name, enable: true, deleted: false }),
      expect.objectContaining({ id: disabled.id, name: disabled.name, enable: false, deleted: false }),
      expect.objectContaining({ id: deleted.id, name: deleted.name, enable: false, deleted: true }),
    ]);

    const res = await post(`/auto-check/rules/${rule.id}/check`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.operation).toMatchObject({
      name: OperationName.values.AutoCheck,
      rule_id: rule.id,
      task_total: 1,
      operator: { nickname: expect.any(String) },
    });
    expect(res.body.data.skipped).toEqual([
      { site_id: disabled.id, name: disabled.name, reason: 'disabled' },
      { site_id: deleted.id, name: deleted.name, reason: 'deleted' },
    ]);
    const op = await get(`/operations/${res.body.data.operation.id}/tasks`);
    expect(op.body.data.tasks.map((t: { site: { id: number } }) => t.site.id)).toEqual([siteA.id]);
  });

  it('refuses to check a rule none of whose sites can be checked', async () => {
    const only = await newSite();
    const rule = await newRule({ sites: [only.id] });
    await put(`/sites/${only.id}`, { enable: false });
    const res = await post(`/auto-check/rules/${rule.id}/check`);
    expect(res.status).toBe(400);
    expect(res.body.extra.sites).toContain('disabled');
  });
});

describe('the calendar', () => {
  it('shows an enabled rule in its minute of the week with its site count', async () => {
    const rule = await newRule({ times: [{ day: 4, times: ['03:17'] }] });
    const res = await get('/auto-check/calendar');
    expect(res.status).toBe(200);
    const cell = res.body.data.cells.find(
      (c: { weekStamp: number }) => c.weekStamp === 3 * 86_400 + 3 * 3600 + 17 * 60,
    );
    expect(cell.rules).toContainEqual({ id: rule.id, name: rule.name, site_cnt: 2 });
    expect(res.body.data.time_zone).toBeTruthy();
  });
});
