// Bank alert rules through the API (issue 45 item 2): CRUD with the list protocol, a condition that
// does not parse refused with its column, roles checked on the server, every change audited, and
// the preview over a real account's stored statements (the sandbox KBZ portal).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const sandbox = stack.env.SANDBOX_BANK_URL as string;
let token: string;
let viewerToken: string;
const as = (t: string) => ({
  get: (path: string) => client.get(`/api/v1${path}`, { token: t }),
  post: (path: string, body: unknown = {}) => client.post(`/api/v1${path}`, { token: t, body }),
  put: (path: string, body: unknown) => client.put(`/api/v1${path}`, { token: t, body }),
  delete: (path: string) => client.delete(`/api/v1${path}`, { token: t }),
});
const admin = () => as(token);

const rule = (extra: Record<string, unknown> = {}) => ({
  name: uniqueName('Floor '),
  expression: 'balance < 1,000,000 or no_statement_for > 2h',
  scope: { kind: 'all' },
  severity: 'warning',
  enabled: false,
  ...extra,
});

beforeAll(async () => {
  token = await k.admin();
  const viewer = uniqueName('rulesviewer');
  await k.createUser(viewer, 'viewer-pass-1', 'viewer');
  viewerToken = await login(stack.url, viewer, 'viewer-pass-1');
});
afterAll(() => k.destroy());

describe('alert rules', () => {
  it('refuses a condition that does not parse with its column and the expected token, and keeps nothing', async () => {
    const before = (await admin().get('/bank/alert-rules?page_size=0')).body.data.total_count;
    const res = await admin().post(
      '/bank/alert-rules',
      rule({ expression: 'balance < 1,000,000 or no_statement_for > 2' }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: ErrorCode.AlertRuleExpressionInvalid,
      msg: expect.stringContaining('Column 43'),
      extra: { column: 43, expected: ['duration'], found: '2' },
    });
    const typeError = await admin().post('/bank/alert-rules', rule({ expression: 'balance > 2h' }));
    expect(typeError.body.extra).toMatchObject({ column: 11, expected: ['amount'] });
    // The body's own checks, field by field.
    const bad = await admin().post('/bank/alert-rules', {
      name: ' ',
      expression: '',
      scope: { kind: 'accounts', account_ids: [] },
      severity: 'loud',
      chat_id: 'not a chat',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.extra).toMatchObject({
      name: 'Please enter rule name',
      expression: 'Please enter the condition',
      'scope.account_ids': 'Please choose the accounts',
      severity: 'Severity must be info, warning or critical',
      chat_id: expect.stringContaining('A chat id is a number'),
    });
    const missing = await admin().post(
      '/bank/alert-rules',
      rule({ scope: { kind: 'accounts', account_ids: [987654321] } }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.extra).toEqual({ 'scope.account_ids': 'Bank account 987654321 does not exist' });
    expect((await admin().get('/bank/alert-rules?page_size=0')).body.data.total_count).toBe(before);
  });

  it('keeps a rule, lists it with the list protocol, edits and deletes it, each change audited', async () => {
    const body = rule({ scope: { kind: 'bank', bank: 2, account_ids: [5] }, chat_id: ' -1001234567890 ' });
    const created = await admin().post('/bank/alert-rules', body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const r = created.body.data;
    // Only what the scope's kind uses is kept; the chat trimmed.
    expect(r).toMatchObject({
      name: body.name,
      scope: { kind: 'bank', bank: 2 },
      chat_id: '-1001234567890',
      enabled: false,
    });
    expect(r.scope.account_ids).toBeUndefined();

    const listed = await admin().get(`/bank/alert-rules?name=${encodeURIComponent(body.name)}&page_size=10`);
    expect(listed.body.data.result).toEqual([expect.objectContaining({ id: r.id, severity: 'warning' })]);
    expect((await as(viewerToken).get(`/bank/alert-rules/${r.id}`)).body.data.id).toBe(r.id);

    const edited = await admin().put(
      `/bank/alert-rules/${r.id}`,
      rule({ name: body.name, expression: 'credit > 5,000,000', severity: 'critical', chat_id: '' }),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({
      expression: 'credit > 5,000,000',
      severity: 'critical',
      chat_id: null,
      scope: { kind: 'all' },
    });
    // A refused edit changes nothing.
    const refused = await admin().put(`/bank/alert-rules/${r.id}`, rule({ name: body.name, expression: 'credit >' }));
    expect(refused.body.extra).toMatchObject({ column: 9, expected: ['amount'] });
    expect((await admin().get(`/bank/alert-rules/${r.id}`)).body.data.expression).toBe('credit > 5,000,000');

    const removed = await admin().delete(`/bank/alert-rules/${r.id}`);
    expect(removed.status).toBe(200);
    const gone = await admin().get(`/bank/alert-rules/${r.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(ErrorCode.AlertRuleNotFound);
    expect((await admin().put(`/bank/alert-rules/${r.id}`, rule())).body.code).toBe(ErrorCode.AlertRuleNotFound);
    expect((await admin().delete(`/bank/alert-rules/${r.id}`)).status).toBe(404);

    const audit = await admin().get(
      `/super/audit?target_type=bank_alert_rule&page_size=100&sort=${encodeURIComponent('{"created_at":"desc"}')}`,
    );
    const mine = (audit.body.data.result as { target_id?: number; action: string; status: number }[]).filter(
      (a) => a.target_id === r.id && a.status === 200,
    );
    expect(mine.map((a) => a.action).sort()).toEqual([
      'DELETE /bank/alert-rules/:id',
      'POST /bank/alert-rules',
      'PUT /bank/alert-rules/:id',
    ]);
  });

  it('lets a viewer read the rules but not write or preview them', async () => {
    const viewer = as(viewerToken);
    expect((await viewer.get('/bank/alert-rules')).status).toBe(200);
    const write = await viewer.post('/bank/alert-rules', rule());
    expect(write.status).toBe(403);
    expect(write.body.code).toBe(ErrorCode.ReadOnlyRole);
    expect(
      (await viewer.post('/bank/alert-rules/preview', { expression: 'drift > 0', scope: { kind: 'all' } })).status,
    ).toBe(403);
  });
});

describe('alert rule preview', () => {
  it('lists when a large credit would have fired, on the account that stored it', async () => {
    const user = uniqueName('rules').toLowerCase();
    const created = await admin().post('/bank/bank-accounts', { bank_name: 1, user, pwd: 'sandbox123' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as number;
    await refreshedAccount((p) => admin().post(p), id);
    const sub = ((await admin().get(`/bank/bank-account/${id}/sub`)).body.data as { no: string }[])[0] as {
      no: string;
    };
    const control = await fetch(`${sandbox}/__sandbox/bank/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bank: 1, user, no: sub.no, amount: 7_777_777, inflow: true, name: 'U Ba' }),
    });
    expect(control.status).toBeLessThan(300);
    expect((await admin().post(`/bank/bank-account/${id}/refresh-sts`)).status).toBe(200);

    const scope = { kind: 'accounts', account_ids: [id] };
    const res = await admin().post('/bank/alert-rules/preview', { expression: 'credit = 7,777,777', scope });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.firings).toEqual([
      { at: expect.any(Number), account_id: id, figure: 'credit', value: 7_777_777 },
    ]);
    expect(Date.now() - res.body.data.firings[0].at).toBeLessThan(10 * 60_000);
    expect(
      (await admin().post('/bank/alert-rules/preview', { expression: 'credit > 999,999,999', scope })).body.data,
    ).toEqual({
      firings: [],
      truncated: false,
    });
    const bad = await admin().post('/bank/alert-rules/preview', { expression: 'credit > 7 or', scope });
    expect(bad.status).toBe(400);
    expect(bad.body.extra).toMatchObject({ column: 14, expected: ['figure', 'open'] });
  });
});
