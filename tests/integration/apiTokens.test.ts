// API tokens (issue 46 item 2) through the local stack: made by a super user and shown once, held
// to their scope on the server (a GET, an operator's write, the super area, a reveal, /metrics),
// refused once revoked or expired, their writes audited under their name, never listed.
import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: stack.env.AWS_REGION ?? 'us-east-1',
    endpoint: stack.env.DYNAMO_ENDPOINT,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);
const DAY = 86_400_000;

let creator: { id: number; name: string; session: string };
let siteId: number;
let accountId: number;
const as = (token: string | undefined) => ({
  get: (path: string) => client.get(`/api/v1${path}`, token ? { token } : {}),
  post: (path: string, body: unknown) => client.post(`/api/v1${path}`, { ...(token ? { token } : {}), body }),
  delete: (path: string) => client.delete(`/api/v1${path}`, token ? { token } : {}),
});
const makeToken = async (scope: string, name = uniqueName(`tk-${scope}-`), expires_at = Date.now() + 30 * DAY) => {
  const res = await as(creator.session).post('/super/tokens', { name, scope, expires_at });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; name: string; token: string; prefix: string };
};

beforeAll(async () => {
  const name = uniqueName('tokenboss');
  const id = await k.createUser(name, 'token-boss-pass-1', 'super');
  creator = { id, name, session: await login(stack.url, name, 'token-boss-pass-1') };
  const site = await as(creator.session).post('/sites', {
    name: uniqueName('Token site '),
    url: 'https://tokens.example.test',
    accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
  });
  siteId = site.body.data.id;
  accountId = site.body.data.accounts[0].id;
});
afterAll(() => {
  dynamo.destroy();
  k.destroy();
});

describe('making tokens', () => {
  it('refuses a bad body field by field and keeps nothing', async () => {
    const before = (await as(creator.session).get('/super/tokens?page_size=0')).body.data.total_count;
    const now = Date.now();
    const cases: [unknown, Record<string, string>][] = [
      [
        { name: ' ', scope: 'admin', expires_at: now + DAY },
        { name: 'Please enter the token name', scope: 'Scope must be read, operate or metrics' },
      ],
      [
        { name: 'x'.repeat(41), scope: 'read' },
        { name: 'The name is at most 40 characters', expires_at: 'Please choose when the token expires' },
      ],
      [{ name: 'old', scope: 'read', expires_at: now - 1000 }, { expires_at: 'The expiry must be in the future' }],
      [
        { name: 'far', scope: 'read', expires_at: now + 400 * DAY },
        { expires_at: 'A token expires at most a year ahead' },
      ],
    ];
    for (const [body, extra] of cases) {
      const res = await as(creator.session).post('/super/tokens', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.extra).toMatchObject(extra);
    }
    expect((await as(creator.session).get('/super/tokens?page_size=0')).body.data.total_count).toBe(before);
  });

  it('shows the token once; the list shows its prefix, scope, creator and expiry, never the token or its digest', async () => {
    const made = await makeToken('read');
    expect(made.token).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    expect(made.token.startsWith(made.prefix)).toBe(true);
    const list = await as(creator.session).get('/super/tokens?page_size=100');
    expect(list.status).toBe(200);
    expect(list.headers['x-consumed-rcu']).toBeDefined();
    const row = list.body.data.result.find((r: { id: number }) => r.id === made.id);
    expect(row).toMatchObject({
      name: made.name,
      scope: 'read',
      prefix: made.prefix,
      creator: { nickname: `Nick ${creator.name}` },
    });
    expect(row).not.toHaveProperty('token');
    expect(row).not.toHaveProperty('hash');
    const text = JSON.stringify(list.body);
    expect(text.includes(made.token)).toBe(false);
    expect(text.includes(createHash('sha256').update(made.token).digest('hex'))).toBe(false);
  });

  it('is for super users only', async () => {
    const name = uniqueName('tokop');
    await k.createUser(name, 'token-op-pass-1', 'operator');
    const op = await login(stack.url, name, 'token-op-pass-1');
    expect((await as(op).get('/super/tokens')).status).toBe(403);
    expect(
      (await as(op).post('/super/tokens', { name: 'x', scope: 'read', expires_at: Date.now() + DAY })).status,
    ).toBe(403);
  });
});

describe('each scope, allowed and refused', () => {
  let read: string;
  let operate: string;
  let metrics: string;
  beforeAll(async () => {
    [read, operate, metrics] = [
      (await makeToken('read')).token,
      (await makeToken('operate')).token,
      (await makeToken('metrics')).token,
    ];
  });
  const refusedByScope = (res: { status: number; body: { code: number } }) => {
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(ErrorCode.TokenScopeRefused);
  };

  it('read: every GET a viewer may make, nothing else', async () => {
    expect((await as(read).get(`/sites/${siteId}`)).status).toBe(200);
    expect((await as(read).get('/maintenance')).status).toBe(200);
    refusedByScope(await as(read).post('/maintenance/now', { site_id: siteId, mode: 'pause', minutes: 5 }));
    refusedByScope(await as(read).get('/super/users'));
    refusedByScope(await as(read).get(`/sites/accounts/${accountId}/pwd`));
    refusedByScope(await as(read).get('/metrics'));
  });

  it('operate: an operator write, but no reveal, no super area, no own-account write, no /metrics', async () => {
    const res = await as(operate).post('/maintenance/now', { site_id: siteId, mode: 'silent', minutes: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const reveal = await as(operate).get(`/sites/accounts/${accountId}/pwd`);
    refusedByScope(reveal);
    expect(JSON.stringify(reveal.body).includes('sandbox123')).toBe(false);
    refusedByScope(await as(operate).get('/super/tokens'));
    refusedByScope(
      await as(operate).post('/super/tokens', { name: 'x', scope: 'operate', expires_at: Date.now() + DAY }),
    );
    refusedByScope(await as(operate).post('/logout', {}));
    refusedByScope(await as(operate).get('/metrics'));
    // The creator's session was not ended by anything above.
    expect((await as(creator.session).get('/super/tokens?page_size=0')).status).toBe(200);
  });

  it('metrics: only /metrics', async () => {
    const res = await as(metrics).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/openmetrics-text');
    refusedByScope(await as(metrics).get(`/sites/${siteId}`));
    refusedByScope(await as(metrics).post('/maintenance/now', { site_id: siteId, mode: 'pause', minutes: 5 }));
  });

  it('/metrics refuses a session (403) and no credential (401)', async () => {
    const res = await as(creator.session).get('/metrics');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(ErrorCode.TokenRequired);
    expect((await as(undefined).get('/metrics')).status).toBe(401);
  });

  it('an unknown token is a 401', async () => {
    expect((await as(`pat_${'A'.repeat(43)}`).get('/sites')).status).toBe(401);
  });
});

describe('audit and last use', () => {
  it("audits a token's write under its name and its creator, and stamps its last use", async () => {
    const made = await makeToken('operate', uniqueName('script-'));
    const res = await as(made.token).post('/maintenance/now', { site_id: siteId, mode: 'silent', minutes: 5 });
    expect(res.status).toBe(200);
    const rows = await as(creator.session).get(
      `/super/audit?actor_id==-${creator.id}&page_size=100&sort=${encodeURIComponent('{"created_at":"desc"}')}`,
    );
    const row = rows.body.data.result.find((r: { request_id: string }) => r.request_id === res.headers['x-request-id']);
    expect(row).toMatchObject({
      actor_id: creator.id,
      actor_name: `token ${made.name} (by ${creator.name})`,
      status: 200,
    });
    const list = await as(creator.session).get('/super/tokens?page_size=100');
    const listed = list.body.data.result.find((r: { id: number }) => r.id === made.id);
    expect(listed.last_used_at).toBeGreaterThan(0);
    // The create's own audit row never holds the token.
    const createRows = JSON.stringify(rows.body.data.result);
    expect(createRows.includes(made.token)).toBe(false);
  });
});

describe('revoked and expired', () => {
  it('a revoked token is refused at once, and the list says revoked', async () => {
    const made = await makeToken('read');
    expect((await as(made.token).get('/sites')).status).toBe(200);
    const revoked = await as(creator.session).delete(`/super/tokens/${made.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toBeGreaterThan(0);
    expect((await as(made.token).get('/sites')).status).toBe(401);
    expect((await as(creator.session).delete('/super/tokens/987654321')).body.code).toBe(ErrorCode.ApiTokenNotFound);
  });

  it('an expired token is refused', async () => {
    const made = await makeToken('read');
    expect((await as(made.token).get('/sites')).status).toBe(200);
    // Its expiry moved into the past where the check reads it: as if the time had come.
    const hash = createHash('sha256').update(made.token).digest('hex');
    await dynamo.send(
      new UpdateCommand({
        TableName: stack.env.TABLE_NAME ?? 'patrol',
        Key: { pk: `api_token_key#${hash}`, sk: 'record' },
        UpdateExpression: 'SET expiry = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': Date.now() - 1 },
      }),
    );
    const res = await as(made.token).get('/sites');
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('This API token is unknown, revoked or expired');
  });
});
