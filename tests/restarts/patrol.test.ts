import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../scripts/patrol/main.js';
import { envRef } from '../../shared/schemas/patrolFile.js';
import { api, type Json, login } from '../helpers/api.js';
import { type RunningStack, startStackProcess, stopStackProcess } from '../helpers/stackProcess.js';

// Sites and rules as code (issue 46 item 4) end to end, on stacks of their own: a stack the test
// seeds is exported; the file applied to an empty stack; exported again, it is the same file. The
// second apply changes nothing, a dry run changes nothing, --prune deletes, and the API's refusals
// come back with the entry's key. The command runs in-process (scripts/patrol/main.ts), over HTTP.

const PASSWORD = 'patrol-code-pass-1';
const root = await mkdtemp(join(tmpdir(), 'patrol-as-code-'));
let running: RunningStack | undefined;

afterAll(async () => {
  if (running) await stopStackProcess(running.child);
  if (!process.env.KEEP_TEST_DATA) await rm(root, { recursive: true, force: true });
});

/** A stack of its own (DEMO=0: nothing in it), its admin's session and an API token of `scope`. */
async function freshStack(name: string) {
  if (running) await stopStackProcess(running.child);
  await mkdir(join(root, name));
  running = await startStackProcess({ dataDir: join(root, name), adminPassword: PASSWORD });
  const url = running.url;
  const client = api(url);
  const admin = await login(url, 'admin', PASSWORD);
  const token = async (scope: 'read' | 'operate') => {
    const res = await client.post('/api/v1/super/tokens', {
      token: admin,
      body: { name: `patrol ${scope}`, scope, expires_at: Date.now() + 86_400_000 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.token as string;
  };
  const call = async (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown): Promise<Json> => {
    const res = await client[method](`/api/v1${path}`, { token: admin, ...(body === undefined ? {} : { body }) });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  };
  return { url, client, admin, call, token };
}

/** `npm run patrol -- …` in-process: its exit code and what it printed. */
async function patrol(args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    env,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    readFile: (p) => readFile(p, 'utf8'),
  });
  return { code, out, err, text: out.join('\n') };
}

/** The file without its first line (the schema's address names the stack's port). */
const body = (text: string) => text.split('\n').slice(1).join('\n');

const SECRETS = {
  shopA1: 'shop-a-secret-1',
  shopA2: 'shop-a-secret-2',
  shopB: 'shop-b-secret-1',
  kbz: 'kbz-secret-1',
  aya: 'aya-secret-1',
};
const DAY = 86_400_000;
/** A weekday 3 days from now: the rule's slot is days away, no check runs during the test. */
const farDay = ((new Date().getUTCDay() + 3) % 7) + 1;

describe('npm run patrol -- export | apply', () => {
  it('exports a seeded stack, applies it to an empty one, and exports the same file back', async () => {
    // ---- The seeded stack ----
    const seeded = await freshStack('seeded');
    const shopA = await seeded.call('post', '/sites', {
      name: 'Shop A',
      url: 'https://shop-a.example.com/',
      accounts: [
        { user: 'agent01', pwd: SECRETS.shopA1 },
        { user: 'agent02', pwd: SECRETS.shopA2 },
      ],
    });
    await seeded.call('put', `/sites/accounts/${shopA.accounts.find((a: Json) => a.user === 'agent02').id}`, {
      enable: false,
    });
    const shopB = await seeded.call('post', '/sites', {
      name: 'Shop B (Yangon)',
      url: 'https://shop-b.example.com/login',
      accounts: [{ user: 'agent01', pwd: SECRETS.shopB }],
    });
    await seeded.call('put', `/sites/${shopB.id}`, { enable: false });
    const rule = await seeded.call('post', '/auto-check/rules', {
      name: 'Nightly',
      sites: [shopB.id, shopA.id],
      points: [
        { point: 2, modes: [3, 1] },
        { point: 1, modes: [1] },
      ],
      times: [{ day: farDay, times: ['03:30', '02:00'] }],
    });
    await seeded.call('put', `/auto-check/rules/${rule.id}`, { enable: false });
    await seeded.call('post', '/auto-check/rules', {
      name: 'Weekly login',
      sites: [shopA.id],
      points: [{ point: 1, modes: [1] }],
      times: [{ day: farDay, times: ['04:00'] }],
    });
    const start = Math.ceil((Date.now() + 2 * DAY) / 60_000) * 60_000;
    await seeded.call('post', '/maintenance', {
      name: 'Release night',
      sites: [shopA.id],
      mode: 'pause',
      kind: 'once',
      start_at: start,
      end_at: start + 2 * 3_600_000,
    });
    await seeded.call('post', '/maintenance', {
      name: 'Sunday backups',
      sites: 'all',
      mode: 'silent',
      kind: 'weekly',
      days: [7, 6],
      start_time: '23:00',
      end_time: '01:00',
      enabled: false,
    });
    const kbz = await seeded.call('post', '/bank/bank-accounts', { bank_name: 1, user: 'kbz-ops', pwd: SECRETS.kbz });
    await seeded.call('put', `/bank/bank-account/${kbz.id}`, {
      interval: 120,
      range: [
        [61_200, 72_000],
        [28_800, 43_200],
      ],
      holder: 'Daw Aye',
      remark: 'payroll',
      webhook: 'https://hooks.example.com/patrol',
    });
    const aya = await seeded.call('post', '/bank/bank-accounts', { bank_name: 2, user: 'aya-ops', pwd: SECRETS.aya });
    await seeded.call('put', `/bank/bank-account/${aya.id}`, { status: 99 });
    // Alert rules (issue 45) where the stack has them: the section is left out when the route answers 404.
    const alertRule = (body: unknown) =>
      seeded.client.post('/api/v1/bank/alert-rules', { token: seeded.admin, body }).then((r) => r.status);
    const alerts =
      (await alertRule({
        name: 'Low payroll balance',
        expression: 'balance < 1,000,000',
        scope: { kind: 'accounts', account_ids: [kbz.id] },
        severity: 'warning',
      })) === 200
        ? 2
        : 0;
    if (alerts)
      expect(
        await alertRule({
          name: 'AYA big credit',
          expression: 'credit > 5000000',
          scope: { kind: 'bank', bank: 2 },
          severity: 'critical',
          chat_id: '-1001234567',
          enabled: false,
        }),
      ).toBe(200);

    // The schema is public: an editor fetches it without credentials.
    const schema = await seeded.client.get('/api/v1/patrol.schema.json');
    expect(schema.status).toBe(200);
    expect(schema.headers['content-type']).toContain('application/schema+json');
    expect(Object.keys(schema.body.properties)).toEqual(
      expect.arrayContaining(['version', 'sites', 'auto_check_rules', 'maintenance_windows', 'bank_accounts']),
    );

    // Export needs no more than a read token.
    const readEnv = { PATROL_URL: seeded.url, PATROL_TOKEN: await seeded.token('read') };
    const exported = await patrol(['export'], readEnv);
    expect(exported.err).toEqual([]);
    expect(exported.code).toBe(0);
    const text = exported.text;
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${seeded.url}/api/v1/patrol.schema.json`);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    const file = parse(text);
    expect(file.sites.map((s: Json) => s.name)).toEqual(['Shop A', 'Shop B (Yangon)']);
    expect(file.sites[0].accounts).toEqual([
      { user: 'agent01', pwd: envRef('PATROL_SITE_SHOP_A_AGENT01'), enable: true },
      { user: 'agent02', pwd: envRef('PATROL_SITE_SHOP_A_AGENT02'), enable: false },
    ]);
    expect(file.auto_check_rules[0]).toEqual({
      name: 'Nightly',
      sites: ['Shop A', 'Shop B (Yangon)'],
      points: [
        { process: 'Login', modes: ['D4'] },
        { process: 'PlaceBets', modes: ['D4', 'TT'] },
      ],
      times: [{ day: farDay, times: ['02:00', '03:30'] }],
      enable: false,
    });
    expect(file.maintenance_windows.map((w: Json) => w.name)).toEqual(['Release night', 'Sunday backups']);
    expect(file.maintenance_windows[0].start_at).toBe(new Date(start).toISOString());
    expect(file.bank_accounts[0]).toMatchObject({
      bank: 'AYA',
      user: 'aya-ops',
      pwd: envRef('PATROL_BANK_AYA_AYA_OPS'),
      enabled: false,
    });
    expect(file.bank_accounts[1]).toMatchObject({
      bank: 'KBZ',
      range: [
        ['08:00', '12:00'],
        ['17:00', '20:00'],
      ],
      webhook: 'https://hooks.example.com/patrol',
    });
    if (alerts)
      expect(file.alert_rules).toEqual([
        {
          name: 'AYA big credit',
          expression: 'credit > 5000000',
          scope: { kind: 'bank', bank: 'AYA' },
          severity: 'critical',
          chat_id: '-1001234567',
          enabled: false,
        },
        {
          name: 'Low payroll balance',
          expression: 'balance < 1,000,000',
          scope: { kind: 'accounts', accounts: ['KBZ/kbz-ops'] },
          severity: 'warning',
          chat_id: null,
          enabled: true,
        },
      ]);
    else expect(file.alert_rules).toBeUndefined();
    const path = join(root, 'patrol.yaml');
    await writeFile(path, text);
    const passwords = {
      PATROL_SITE_SHOP_A_AGENT01: SECRETS.shopA1,
      PATROL_SITE_SHOP_A_AGENT02: SECRETS.shopA2,
      PATROL_SITE_SHOP_B_YANGON_AGENT01: SECRETS.shopB,
      PATROL_BANK_KBZ_KBZ_OPS: SECRETS.kbz,
      PATROL_BANK_AYA_AYA_OPS: SECRETS.aya,
    };

    // ---- The empty stack ----
    const empty = await freshStack('empty');
    const env = { PATROL_URL: empty.url, PATROL_TOKEN: await empty.token('operate') };
    const exportEmpty = async () => body((await patrol(['export'], env)).text);
    const before = await exportEmpty();
    expect(parse(before).sites).toEqual([]);

    // A missing variable stops the apply before any change, naming it.
    const { PATROL_BANK_KBZ_KBZ_OPS: _, ...short } = passwords;
    const missing = await patrol(['apply', '-f', path], { ...env, ...short });
    expect(missing.code).toBe(2);
    expect(missing.err.join('\n')).toContain('Environment variables not set: PATROL_BANK_KBZ_KBZ_OPS');
    expect(await exportEmpty()).toBe(before);

    // A dry run says what it would do, and does nothing.
    const dry = await patrol(['apply', '-f', path, '--dry-run'], { ...env, ...passwords });
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('create site "Shop A"');
    expect(dry.out).toContain('create site account "Shop B (Yangon)/agent01"');
    expect(dry.out).toContain('create bank account "KBZ/kbz-ops"');
    expect(dry.out.every((l, i) => i === dry.out.length - 1 || /^(create|update|delete|unchanged) /.test(l))).toBe(
      true,
    );
    const entries = 11 + alerts;
    expect(dry.out.at(-1)).toBe(`${entries} to create, 0 to update, 0 to delete, 0 unchanged`);
    expect(await exportEmpty()).toBe(before);

    const applied = await patrol(['apply', '-f', path], { ...env, ...passwords });
    expect(applied.err).toEqual([]);
    expect(applied.code).toBe(0);
    expect(applied.out.at(-1)).toBe(`${entries} created, 0 updated, 0 deleted, 0 unchanged`);
    expect(await exportEmpty()).toBe(body(text));

    // The passwords are the environment's.
    const accounts = await empty.call('get', '/sites/accounts?page_size=0');
    for (const [user, site, secret] of [
      ['agent02', 'Shop A', SECRETS.shopA2],
      ['agent01', 'Shop B (Yangon)', SECRETS.shopB],
    ]) {
      const row = accounts.result.find((a: Json) => a.user === user && a.site?.name === site);
      expect((await empty.call('get', `/sites/accounts/${row.id}/pwd`)).pwd).toBe(secret);
    }

    // The second apply is a no-op.
    const again = await patrol(['apply', '-f', path], { ...env, ...passwords });
    expect(again.code).toBe(0);
    expect(again.out.slice(0, -1).every((l) => l.startsWith('unchanged '))).toBe(true);
    expect(again.out.at(-1)).toBe(`0 created, 0 updated, 0 deleted, ${entries} unchanged`);

    // An edit: one change shown as an update with its fields; what the file drops is kept without --prune.
    const edited = parse(text);
    edited.sites = edited.sites.filter((s: Json) => s.name !== 'Shop B (Yangon)');
    edited.auto_check_rules = [{ ...edited.auto_check_rules[1], sites: ['Shop A'] }];
    edited.maintenance_windows = edited.maintenance_windows.slice(1);
    edited.bank_accounts[1].interval = 60;
    const editedPath = join(root, 'edited.yaml');
    await writeFile(editedPath, JSON.stringify(edited));
    const keep = await patrol(['apply', '-f', editedPath, '--dry-run'], env);
    expect(keep.out).toContain('update bank account "KBZ/kbz-ops": interval');
    expect(keep.out.at(-1)).toBe(
      `0 to create, 1 to update, 0 to delete, ${6 + alerts} unchanged; 3 not in the file, kept (--prune deletes them)`,
    );

    // --prune deletes them (the API keeps accounts: those it disables).
    const pruned = await patrol(['apply', '-f', editedPath, '--prune'], env);
    expect(pruned.err).toEqual([]);
    expect(pruned.code).toBe(0);
    expect(pruned.out.filter((l) => l.startsWith('delete '))).toEqual([
      'delete maintenance window "Release night"',
      'delete auto-check rule "Nightly"',
      'delete site "Shop B (Yangon)"',
    ]);
    const after = parse(await exportEmpty());
    expect(after.sites.map((s: Json) => s.name)).toEqual(['Shop A']);
    expect(after.auto_check_rules.map((r: Json) => r.name)).toEqual(['Weekly login']);
    expect(after.maintenance_windows.map((w: Json) => w.name)).toEqual(['Sunday backups']);
    expect(after.bank_accounts[1].interval).toBe(60);

    // The API's refusal, with the entry's key and the API's words; the other entries still apply.
    const refused = structuredClone(edited);
    refused.sites.push({ name: 'Metadata', url: 'http://169.254.169.254/latest', accounts: [] });
    refused.bank_accounts[0].remark = 'kept aside';
    await writeFile(editedPath, JSON.stringify(refused));
    const failed = await patrol(['apply', '-f', editedPath], env);
    expect(failed.code).toBe(1);
    expect(failed.err.join('\n')).toMatch(/^failed: create site "Metadata": .*url: /m);
    expect(failed.out).toContain('update bank account "AYA/aya-ops": remark');
    expect(failed.out.at(-1)).toMatch(/0 created, 1 updated, 0 deleted, \d+ unchanged, 1 failed$/);
  }, 400_000);
});
