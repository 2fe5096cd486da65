// Issue 10 through the running stack: site URLs cannot aim the checker at private addresses,
// passwords leave the server only through the audited, rate-limited reveal call, and a stored
// ciphertext is bound to its record.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { withinOneWindow } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const sandboxUrl = stack.env.SANDBOX_SITE_URL;
let token: string;

const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: stack.env.AWS_REGION,
    endpoint: stack.env.DYNAMO_ENDPOINT,
    credentials: { accessKeyId: stack.env.AWS_ACCESS_KEY_ID, secretAccessKey: stack.env.AWS_SECRET_ACCESS_KEY },
  }),
);

const get = (path: string, as = token) => client.get(`/api/v1${path}`, { token: as });
const post = (path: string, body: unknown) => client.post(`/api/v1${path}`, { token, body });
const put = (path: string, body: unknown) => client.put(`/api/v1${path}`, { token, body });

async function newUser(): Promise<{ id: number; name: string; token: string }> {
  const name = uniqueName('sec');
  const id = await k.createUser(name, 'security-pass-1');
  return { id, name, token: await login(stack.url, name, 'security-pass-1') };
}

async function newSite(accounts: { user: string; pwd: string }[], url = 'https://agent.example.test') {
  const res = await post('/sites', { name: uniqueName('Sec '), url, accounts });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; name: string };
}

/** The newest audit rows, as stored. */
async function auditRows(limit = 20): Promise<Record<string, unknown>[]> {
  const out = await dynamo.send(
    new QueryCommand({
      TableName: stack.env.TABLE_NAME,
      IndexName: 'byType',
      KeyConditionExpression: 'gsi1pk = :t',
      ExpressionAttributeValues: { ':t': 'audit' },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return out.Items ?? [];
}

beforeAll(async () => {
  token = await k.admin();
});
afterAll(() => k.destroy());

describe('saving a site URL', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:8000/'],
    ['loopback by name', 'http://localhost:4569/'],
    ['loopback in decimal', 'http://2130706433/'],
    ['loopback in hex', 'http://0x7f.0.0.1/'],
    ['IPv6 loopback', 'http://[::1]:3000/'],
    ['private 10/8', 'http://10.0.0.8/'],
    ['private 172.16/12', 'http://172.20.1.1/'],
    ['private 192.168/16', 'https://192.168.0.1/'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['metadata as IPv4-mapped IPv6', 'http://[::ffff:a9fe:a9fe]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['unique-local', 'http://[fd00:ec2::254]/'],
    ['unspecified IPv4', 'http://0.0.0.0:3000/'],
    ['unspecified IPv6', 'http://[::]/'],
    ['metadata host name', 'http://metadata.google.internal/computeMetadata/v1/'],
  ])('refuses a %s address with a 400 that says why, on create and on edit', async (_, url) => {
    const created = await post('/sites', { name: uniqueName('Bad '), url, accounts: [] });
    expect(created.status).toBe(400);
    expect(created.body.extra.url).toMatch(/^This address is not allowed: /);

    const site = await newSite([]);
    const edited = await put(`/sites/${site.id}`, { url });
    expect(edited.status).toBe(400);
    expect(edited.body.extra.url).toMatch(/^This address is not allowed: /);
    expect((await get(`/sites/${site.id}`)).body.data.url).toBe('https://agent.example.test');
  });

  it('accepts a name that does not resolve now, and the sandbox host the stack allows', async () => {
    await newSite([], 'https://not-registered-yet.example.test/agent');
    await newSite([], sandboxUrl);
  });
});

describe('a site that redirects the checker to a private address', () => {
  it('is not loaded: the check fails and its log names the refused address', async () => {
    const site = await newSite([{ user: 'agent01', pwd: 'sandbox123' }], `${sandboxUrl}/to-metadata`);
    const started = await post(`/sites/${site.id}/check`, { points: [{ point: 1, modes: [1] }] });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const operationId = started.body.data.id;
    const until = Date.now() + 120_000;
    let op: { status: number; task_failed: number };
    for (;;) {
      op = (await get(`/operations/${operationId}/tasks`)).body.data.operation;
      if (op.status === RunStatus.values.Done || op.status === RunStatus.values.Failed) break;
      if (Date.now() > until) throw new Error(`operation still ${op.status}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const subtasks = (await get(`/check/subtasks?operation_id==-${operationId}&page_size=0`)).body.data.result;
    const ids = subtasks.map((s: { id: number }) => s.id);
    const logs = (await get('/check/results/login?page_size=100')).body.data.result.filter(
      (r: { subtask_id: number }) => ids.includes(r.subtask_id),
    );
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ success: false, login_success: false });
    expect(logs[0].msg).toMatch(
      /^Refused to open http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/: 169\.254\.169\.254 is a link-local address/,
    );
  });
});

describe('site account passwords', () => {
  it('appear in no list, reply or export source', async () => {
    const pwd = uniqueName('never-listed-');
    const site = await newSite([{ user: 'agent01', pwd }]);
    const added = await post(`/sites/${site.id}/accounts`, { accounts: [{ user: 'agent02', pwd }] });
    const accountId = added.body.data[0].id;
    const replies = [
      added,
      await get(`/sites/${site.id}/accounts`),
      await get('/sites/accounts?page_size=0'),
      await get(`/sites/accounts?site_id==-${site.id}`),
      await put(`/sites/accounts/${accountId}`, { pwd }),
      await put(`/sites/accounts/${accountId}`, { user: 'agent03' }),
      await put(`/sites/accounts/${accountId}`, { enable: false }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(JSON.stringify(reply.body)).not.toContain(pwd);
      expect(JSON.stringify(reply.body)).not.toMatch(/"pwd"/);
    }
  });

  it('are revealed one at a time, and each reveal is audited without the value', async () => {
    const pwd = uniqueName('reveal-me-');
    const site = await newSite([
      { user: 'agent01', pwd },
      { user: 'agent02', pwd: 'other-password' },
    ]);
    const [first] = (await get(`/sites/${site.id}/accounts`)).body.data as { id: number; user: string }[];
    const user = await newUser();

    const res = await get(`/sites/accounts/${first.id}/pwd`, user.token);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: first.id, pwd: first.user === 'agent01' ? pwd : 'other-password' });
    const rows = (await auditRows()).filter((r) => r.actor_id === user.id);
    expect(rows).toEqual([
      expect.objectContaining({
        actor_id: user.id,
        actor_name: user.name,
        action: 'site_account.pwd.reveal',
        target: `site_account#${first.id}`,
        client_ip: expect.any(String),
        outcome: 'allowed',
        at: expect.any(Number),
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(pwd);
    const log = readFileSync(join(stack.dataDir, 'stack.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"audit"') && l.includes(user.name) && l.includes('site_account.pwd.reveal'));
    expect(log).toHaveLength(1);
    expect(log[0]).toContain(`site_account#${first.id}`);
    expect(log[0]).not.toContain(pwd);
  });

  it('answers 404 for an unknown account and 401 without a token', async () => {
    expect((await get('/sites/accounts/987654321/pwd')).status).toBe(404);
    expect((await client.get('/api/v1/sites/accounts/1/pwd')).status).toBe(401);
  });

  it('are rate limited per user: the 11th reveal in a minute is a 429 with Retry-After, and audited', async () => {
    const site = await newSite([{ user: 'agent01', pwd: 'limited-pw' }]);
    const [account] = (await get(`/sites/${site.id}/accounts`)).body.data;
    const user = await newUser();
    const other = await newUser();
    // One fixed window of 60 s: the burst starts with at least 20 s of it left (the helper's margin;
    // 5 s was the machine's speed's to keep under load).
    await withinOneWindow(60);
    // Fired at once: the limiter reserves slots atomically, so a burst cannot slip past it.
    const replies = await Promise.all(
      Array.from({ length: 11 }, () => get(`/sites/accounts/${account.id}/pwd`, user.token)),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 429).length).toBe(1);
    const refused = replies.find((r) => r.status === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(refused.body)).not.toContain('limited-pw');
    // Another user is not held back by this one.
    expect((await get(`/sites/accounts/${account.id}/pwd`, other.token)).status).toBe(200);
    const rows = (await auditRows(50)).filter((r) => r.actor_id === user.id);
    expect(rows.filter((r) => r.outcome === 'refused')).toHaveLength(1);
    expect(rows.filter((r) => r.outcome === 'allowed')).toHaveLength(10);
  });

  it('do not decrypt when a stored ciphertext is moved into another account', async () => {
    const site = await newSite([
      { user: 'victim', pwd: 'victim-password' },
      { user: 'attacker', pwd: 'attacker-password' },
    ]);
    const accounts = (await get(`/sites/${site.id}/accounts`)).body.data as { id: number; user: string }[];
    const victim = accounts.find((a) => a.user === 'victim')!;
    const attacker = accounts.find((a) => a.user === 'attacker')!;
    const stolen = (await k.rawItem(`site_account#${victim.id}`, 'item'))?.pwd_enc;
    await dynamo.send(
      new UpdateCommand({
        TableName: stack.env.TABLE_NAME,
        Key: { pk: `site_account#${attacker.id}`, sk: 'item' },
        UpdateExpression: 'SET pwd_enc = :p',
        ExpressionAttributeValues: { ':p': stolen },
      }),
    );

    const res = await get(`/sites/accounts/${attacker.id}/pwd`);

    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 4092 });
    expect(res.body.msg).toContain('cannot be read; enter it again');
    expect(JSON.stringify(res.body)).not.toContain('victim-password');
    expect((await get(`/sites/accounts/${victim.id}/pwd`)).body.data.pwd).toBe('victim-password');
  });
});
