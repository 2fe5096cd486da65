// The audit trail (Super config issue, item 3): every write a user makes leaves one row, written
// by the API's audit step, with no secret in it; super users read it as a list; rows expire
// after the configured retention.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/envelope.js';
import { login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: stack.env.AWS_REGION,
    endpoint: stack.env.DYNAMO_ENDPOINT,
    credentials: { accessKeyId: stack.env.AWS_ACCESS_KEY_ID, secretAccessKey: stack.env.AWS_SECRET_ACCESS_KEY },
  }),
);

/** Every secret this file sends, to be searched for in every audit row afterwards. */
const secrets: string[] = [];
const secret = (prefix: string) => {
  const s = uniqueName(`${prefix}-secret-`);
  secrets.push(s);
  return s;
};

let actor: { id: number; name: string; token: string };
const call = (method: 'get' | 'post' | 'put', path: string, body?: unknown) =>
  client[method](`/api/v1${path}`, { token: actor.token, ...(body !== undefined ? { body } : {}) });

/** Every audit row in the table, as stored (all pages). */
async function allAuditRows(): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await dynamo.send(
      new QueryCommand({
        TableName: stack.env.TABLE_NAME,
        IndexName: 'byType',
        KeyConditionExpression: 'gsi1pk = :t',
        ExpressionAttributeValues: { ':t': 'audit' },
        ExclusiveStartKey: start,
      }),
    );
    rows.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return rows;
}

beforeAll(async () => {
  const name = uniqueName('auditor');
  const password = secret('login');
  const id = await k.createUser(name, password, 'super');
  const token = await login(stack.url, name, password);
  secrets.push(token);
  actor = { id, name, token };
});

afterAll(() => {
  k.destroy();
  dynamo.destroy();
});

describe('the audit trail', () => {
  it('has a row for each kind of write, with who, what, which record, from where, and no secret', async () => {
    // Failed login, from an address of its own so no other test meets a captcha.
    const wrong = secret('wrong');
    const failed = await client.post('/api/v1/login', {
      body: { username: actor.name, password: wrong },
      ...fromIp(uniqueIp()),
    });
    expect(failed.status, JSON.stringify(failed.body)).toBe(400);

    const accountPwd = secret('acct');
    const site = await call('post', '/sites', {
      name: uniqueName('Audit '),
      url: 'https://agent.example.test',
      accounts: [{ user: 'agent01', pwd: accountPwd }],
    });
    expect(site.status, JSON.stringify(site.body)).toBe(200);
    const siteId = site.body.data.id as number;
    expect((await call('put', `/sites/${siteId}`, { name: uniqueName('Audit renamed ') })).status).toBe(200);
    expect(
      (await call('post', `/sites/${siteId}/accounts`, { accounts: [{ user: 'agent02', pwd: secret('acct2') }] }))
        .status,
    ).toBe(200);
    const [account] = (await call('get', `/sites/${siteId}/accounts`)).body.data as { id: number }[];
    expect((await call('put', `/sites/accounts/${account.id}`, { pwd: secret('acct3') })).status).toBe(200);
    expect((await call('get', `/sites/accounts/${account.id}/pwd`)).status).toBe(200);

    const check = await call('post', `/sites/${siteId}/check`, { points: [{ point: 1, modes: [1] }] });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    const opId = check.body.data.operation?.id ?? check.body.data.id;
    expect((await call('post', `/operations/${opId}/action`, { action: 1 })).status).toBeLessThan(500);
    expect((await call('post', `/operations/${opId}/action`, { action: 2 })).status).toBeLessThan(500);

    const userName = uniqueName('audited');
    const created = await call('post', '/super/users', {
      username: userName,
      password: secret('newuser'),
      role: 'operator',
    });
    expect(created.status).toBe(200);
    const userId = created.body.data.id as number;
    expect((await call('put', `/super/users/${userId}/pwd`, { pwd: secret('setpwd') })).status).toBe(200);

    const config = (await call('get', '/super/system-config')).body.data.document;
    const saved = await call('post', '/super/system-config', {
      ...config,
      checker: { ...config.checker, concurrency: config.checker.concurrency === 2 ? 3 : 2 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const rows = await allAuditRows();
    const mine = rows.filter((r) => r.actor_id === actor.id);
    const has = (action: string, target?: string) =>
      expect(
        mine.some((r) => r.action === action && (target === undefined || r.target === target)),
        action,
      ).toBe(true);
    has('POST /sites', `sites#${siteId}`);
    has('PUT /sites/:id', `sites#${siteId}`);
    has('POST /sites/:id/accounts', `sites#${siteId}`);
    has('PUT /sites/accounts/:id', `site_account#${account.id}`);
    has('site_account.pwd.reveal', `site_account#${account.id}`);
    has('POST /sites/:id/check', `sites#${siteId}`);
    has('POST /operations/:id/action', `operations#${opId}`);
    has('POST /super/users', `users#${userId}`);
    has('PUT /super/users/:id/pwd', `users#${userId}`);
    has('POST /super/system-config');

    const logins = rows.filter((r) => r.actor_name === actor.name && r.action === 'POST /login');
    expect(logins.map((r) => r.outcome).sort()).toEqual(['allowed', 'refused']);
    expect(logins.find((r) => r.outcome === 'refused')).toMatchObject({ actor_id: 0, status: 400 });

    const rename = mine.find((r) => r.action === 'PUT /sites/:id')!;
    expect(rename).toMatchObject({
      actor_name: actor.name,
      target_type: 'sites',
      target_id: siteId,
      client_ip: expect.any(String),
      request_id: expect.any(String),
      status: 200,
      outcome: 'allowed',
      at: expect.any(Number),
    });
    expect(JSON.parse(rename.input as string)).toEqual({ name: expect.stringContaining('Audit renamed') });
    expect(JSON.parse(rename.after as string)).toMatchObject({ id: siteId });
    // A create shows what was asked, the account's password left out altogether.
    const create = mine.find((r) => r.action === 'POST /sites')!;
    expect(JSON.parse(create.input as string).accounts).toEqual([{ user: 'agent01' }]);

    // Every row written during the run, by anyone, is searched for every secret this file used.
    const everything = JSON.stringify(await allAuditRows());
    for (const s of secrets)
      expect(everything.includes(s), `a secret in the audit rows: ${s.slice(0, 12)}…`).toBe(false);
    expect(everything).not.toContain(stack.adminPassword);
  });

  it('records a refused write with its status and no result, and leaves no row for a caller it does not know', async () => {
    const refused = await call('post', '/sites', { name: '', url: 'not a url', accounts: [] });
    expect(refused.status).toBe(400);
    const anonymous = await client.post('/api/v1/sites', { body: { name: 'x' } });
    expect(anonymous.status).toBe(401);

    const rows = await allAuditRows();
    const row = rows.find((r) => r.request_id === refused.headers['x-request-id']);
    expect(row).toMatchObject({ actor_id: actor.id, action: 'POST /sites', status: 400, outcome: 'refused' });
    expect(row).not.toHaveProperty('after');
    expect(rows.find((r) => r.request_id === anonymous.headers['x-request-id'])).toBeUndefined();
  });

  it('is a list for super users only, filtered by user, with no way to write or delete a row', async () => {
    const res = await call(
      'get',
      `/super/audit?actor_id==-${actor.id}&page_size=100&sort=${encodeURIComponent('{"created_at":"desc"}')}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['x-consumed-rcu']).toBeDefined();
    expect(res.body.data.result.length).toBeGreaterThan(0);
    expect(res.body.data.result.every((r: { actor_id: number }) => r.actor_id === actor.id)).toBe(true);

    const operator = uniqueName('auditop');
    await k.createUser(operator, 'audit-op-pass-1');
    const opToken = await login(stack.url, operator, 'audit-op-pass-1');
    const refused = await client.get('/api/v1/super/audit', { token: opToken });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ErrorCode.Forbidden);

    const rowId = res.body.data.result[0].id;
    for (const method of ['post', 'put', 'delete'] as const) {
      const path = method === 'post' ? '/api/v1/super/audit' : `/api/v1/super/audit/${rowId}`;
      expect([404, 405]).toContain((await client[method](path, { token: actor.token, body: {} })).status);
    }
  });

  it('gives a new row the expiry of the retention configured now', async () => {
    const before = (await call('get', '/super/system-config')).body.data.document;
    const days = before.retention_days.events === 7 ? 9 : 7;
    const saved = await call('post', '/super/system-config', {
      ...before,
      retention_days: { ...before.retention_days, events: days },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    try {
      // Any write: its audit row is a new row of the `events` retention.
      const res = await call('put', `/super/users/${actor.id}`, { nickname: uniqueName('Nick ') });
      expect(res.status).toBe(200);
      const requestId = res.headers['x-request-id'];
      const row = (await allAuditRows()).find((r) => r.request_id === requestId)!;
      expect(row).toBeDefined();
      const raw = await k.rawItem(`audit#${row.id}`, 'item');
      expect(raw?.expires_at).toBe(Math.floor((row.created_at as number) / 1000) + days * 24 * 3600);
    } finally {
      const now = (await call('get', '/super/system-config')).body.data.document;
      await call('post', '/super/system-config', { ...now, retention_days: before.retention_days });
    }
  });

  it('explains each refused login: the username tried, the address and why, never the password', async () => {
    const wrongPassword = secret('wrongpw');
    const unknownPassword = secret('unknownpw');
    const ghost = uniqueName('ghost');
    const [ipWrong, ipUnknown, ipAttack] = [uniqueIp(), uniqueIp(), uniqueIp()];
    const attempt = (username: string, password: string, ip: string, captcha?: unknown) =>
      client.post('/api/v1/login', { body: { username, password, ...(captcha ? { captcha } : {}) }, ...fromIp(ip) });

    expect((await attempt(actor.name, wrongPassword, ipWrong)).status).toBe(400);
    expect((await attempt(ghost, unknownPassword, ipUnknown)).status).toBe(400);
    // An attack from one address: three guesses, then guesses with wrong captchas, then the lock.
    const attackPassword = secret('attack');
    for (let i = 0; i < 3; i++) await attempt(uniqueName('spray'), attackPassword, ipAttack);
    for (let i = 0; i < 7; i++)
      await attempt(uniqueName('spray'), attackPassword, ipAttack, {
        id: '00000000-0000-4000-8000-000000000000',
        answer: 'zzzz',
      });
    const locked = await attempt(actor.name, attackPassword, ipAttack);
    expect(locked.status).toBe(429);

    const rowsOf = async (query: string) => {
      const res = await call('get', `/super/audit?${query}&page_size=100`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.result as Record<string, unknown>[];
    };
    const byAddress = async (ip: string) => rowsOf(`client_ip=${encodeURIComponent(ip)}`);
    expect(await byAddress(ipWrong)).toEqual([
      expect.objectContaining({
        action: 'POST /login',
        actor_id: 0,
        actor_name: actor.name,
        client_ip: ipWrong,
        outcome: 'refused',
        reason: 'wrong_password',
      }),
    ]);
    expect(await byAddress(ipUnknown)).toEqual([
      expect.objectContaining({ actor_name: ghost, client_ip: ipUnknown, reason: 'unknown_username' }),
    ]);
    const attack = await byAddress(ipAttack);
    expect(attack.map((r) => r.reason).sort()).toEqual([
      ...Array(7).fill('captcha'),
      'throttled',
      ...Array(3).fill('unknown_username'),
    ]);
    expect(attack.find((r) => r.reason === 'throttled')).toMatchObject({ actor_name: actor.name, status: 429 });

    // A super user filters on the reason (a key-served filter: it reads the throttled rows only).
    const throttled = await rowsOf('reason=throttled');
    expect(throttled.some((r) => r.client_ip === ipAttack)).toBe(true);
    expect(throttled.every((r) => r.reason === 'throttled')).toBe(true);

    const everything = JSON.stringify(await allAuditRows());
    for (const password of [wrongPassword, unknownPassword, attackPassword]) expect(everything).not.toContain(password);
  });
});
