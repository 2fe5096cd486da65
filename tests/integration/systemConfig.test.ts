// The system config of the super area (issue 12): one validated document, versioned with who,
// when and the diff, restorable, read by every signed-in user's shell.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/envelope.js';
import { DEFAULT_SYSTEM_CONFIG } from '../../shared/schemas/systemConfig.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const PASSWORD = 'cfg-pass-123';

afterAll(() => k.destroy());

const current = async () => (await client.get('/api/v1/super/system-config', { token: await k.admin() })).body.data;
const save = async (document: unknown) =>
  client.post('/api/v1/super/system-config', { token: await k.admin(), body: document });

describe('system config', () => {
  it('starts with the defaults: Myanmar time and empty recharge option lists', async () => {
    const res = await client.get('/api/v1/super/system-config', { token: await k.admin() });
    expect(res.status).toBe(200);
    expect(res.body.data.document).toMatchObject({
      time_zone: expect.any(String),
      checker: { concurrency: expect.any(Number), step_timeout_seconds: expect.any(Number) },
      RECHARGE_CONFIG: expect.objectContaining({ channel_package_pairs: expect.any(Array) }),
    });
    expect(DEFAULT_SYSTEM_CONFIG.time_zone).toBe('Asia/Yangon');
  });

  it('saves a change as a new version recording who, when and what changed', async () => {
    const before = await current();
    const document = {
      ...before.document,
      time_zone: before.document.time_zone === 'Europe/Berlin' ? 'Asia/Tokyo' : 'Europe/Berlin',
      RECHARGE_CONFIG: {
        merchant_codes: ['M1'],
        price_codes: ['P10', 'P20'],
        channel_codes: ['KBZPAY', 'WAVE'],
        package_codes: ['PK1'],
        channel_package_pairs: [{ channel: 'WAVE', package: 'PK1' }],
      },
    };
    const startedAt = Date.now();

    const res = await save(document);

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: before.version + 1, document, updated_by: { nickname: 'admin' } });
    expect((await current()).document).toEqual(document);
    const versions = await client.get('/api/v1/super/system-config/versions?sort={"id":"desc"}&page_size=1', {
      token: await k.admin(),
    });
    expect(versions.status).toBe(200);
    expect(versions.headers['x-consumed-rcu']).toEqual(expect.any(String));
    const [latest] = versions.body.data.result;
    expect(latest).toMatchObject({ id: before.version + 1, by: { nickname: 'admin' }, document });
    expect(latest.created_at).toBeGreaterThanOrEqual(startedAt);
    expect(latest.changes).toEqual(
      expect.arrayContaining([
        { path: 'time_zone', from: before.document.time_zone, to: document.time_zone },
        { path: 'RECHARGE_CONFIG.merchant_codes', from: before.document.RECHARGE_CONFIG.merchant_codes, to: ['M1'] },
      ]),
    );
  });

  it('refuses an invalid document with every bad field named, and changes nothing', async () => {
    const before = await current();
    const res = await save({
      ...before.document,
      time_zone: 'Mars/Olympus_Mons',
      checker: { concurrency: 0, step_timeout_seconds: 15.5 },
      bank: { default_monitor_interval: 121 },
      RECHARGE_CONFIG: {
        merchant_codes: ['ok', 'ok'],
        price_codes: [],
        channel_codes: ['WAVE'],
        package_codes: ['PK1'],
        channel_package_pairs: [{ channel: 'NOPE', package: 'PK1' }],
      },
    });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.Validation);
    expect(res.body.extra).toEqual({
      time_zone: 'Unknown time zone, use an IANA name such as Asia/Yangon',
      'checker.concurrency': 'Min is 1.',
      'checker.step_timeout_seconds': 'Please input a number',
      'bank.default_monitor_interval': 'Must between 5 and 120',
      'RECHARGE_CONFIG.merchant_codes.1': 'Each code may appear only once',
      'RECHARGE_CONFIG.channel_package_pairs.0.channel': 'Not one of the channel codes',
    });
    expect(await current()).toEqual(before);
  });

  it('makes no version for a save that changes nothing', async () => {
    const before = await current();
    const res = await save(before.document);
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(before.version);
  });

  it('restores an earlier version as a new one', async () => {
    const start = await current();
    const first = { ...start.document, retention_days: { ...start.document.retention_days, videos: 7 } };
    const v1 = (await save(first)).body.data.version;
    const second = { ...first, retention_days: { ...first.retention_days, videos: 30 }, time_zone: 'UTC' };
    const v2 = (await save(second)).body.data.version;
    expect(v2).toBe(v1 + 1);

    const res = await client.post(`/api/v1/super/system-config/versions/${v1}/restore`, { token: await k.admin() });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: v2 + 1, document: first });
    expect((await current()).document).toEqual(first);
    const restored = await client.get(`/api/v1/super/system-config/versions/${v2 + 1}`, { token: await k.admin() });
    expect(restored.body.data).toMatchObject({ restored_from: v1, document: first });
    expect(restored.body.data.changes).toEqual(
      expect.arrayContaining([{ path: 'retention_days.videos', from: 30, to: 7 }]),
    );
    const missing = await client.post('/api/v1/super/system-config/versions/999999/restore', {
      token: await k.admin(),
    });
    expect(missing.status).toBe(404);
  });

  it('gives every signed-in user the document the shell needs, within seconds of a change', async () => {
    const operator = uniqueName('cfgop');
    await k.createUser(operator, PASSWORD, 'operator');
    const token = await login(stack.url, operator, PASSWORD);
    const before = await current();
    const document = {
      ...before.document,
      RECHARGE_CONFIG: { ...before.document.RECHARGE_CONFIG, price_codes: [uniqueName('P')] },
    };
    await save(document);

    await expect
      .poll(async () => (await client.get('/api/v1/system-config', { token })).body.data, { timeout: 8_000 })
      .toEqual(document);
    expect((await client.get('/api/v1/system-config')).status).toBe(401);
    expect((await client.get('/api/v1/super/system-config', { token })).status).toBe(403);
  });
});
