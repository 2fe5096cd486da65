// The bank API through the local stack (issue 13 item 1): the spec's validation texts, secrets
// never in list replies, the audited reveal, batch enable / disable of sub-accounts, and init /
// refresh against the sandbox KBZ and AYA portals.

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
let revealToken: string;
const sandbox = stack.env.SANDBOX_BANK_URL as string;
const SANDBOX_PWD = 'sandbox123';

const post = (path: string, body?: unknown) => client.post(`/api/v1${path}`, { token, body: body ?? {} });
const put = (path: string, body: unknown) => client.put(`/api/v1${path}`, { token, body });
const get = (path: string) => client.get(`/api/v1${path}`, { token });
const refreshed = (id: number) => refreshedAccount(post, id);
/** A statement as the list shows it: the bank's line and the row's own id. */
type StatementLine = { id: number; amount: number; inflow: boolean; human_date: string; name: string };
const control = async (name: string, body: unknown) => {
  const res = await fetch(`${sandbox}/__sandbox/bank/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json();
};

async function newAccount(bank: 1 | 2 = 1, user = uniqueName('u').toLowerCase(), pwd = SANDBOX_PWD) {
  const res = await post('/bank/bank-accounts', { bank_name: bank, user, pwd });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; user: string; pwd: string; api_key: string | null; status: number };
}

beforeAll(async () => {
  token = await k.admin();
  const revealer = uniqueName('bankrv');
  await k.createUser(revealer, 'revealer-pass-1');
  revealToken = await login(stack.url, revealer, 'revealer-pass-1');
});
afterAll(() => k.destroy());

describe('bank accounts', () => {
  it('creates an account enabled, all day, at the configured interval, with its password masked', async () => {
    const account = await newAccount(1, `  ${uniqueName('trim').toLowerCase()}  `);
    expect(account.user).toBe(account.user.trim());
    expect(account).toMatchObject({ status: 1, pwd: '******', api_key: null, monitor_range: [[0, 86400]] });
    expect((account as unknown as { monitor_interval: number }).monitor_interval).toBe(30);
  });

  it.each([
    [{ user: ' ', pwd: 'p' }, 'user', 'Please enter user'],
    [{ pwd: 'p' }, 'user', 'Please enter user'],
    [{ user: 'someone', pwd: '  ' }, 'pwd', 'Please enter password'],
    [{ bank_name: 3, user: 'someone', pwd: 'p' }, 'bank_name', 'Please choose KBZ (1) or AYA (2)'],
  ])('refuses the new account %j with the spec text', async (body, field, message) => {
    const res = await post('/bank/bank-accounts', body);
    expect(res.status).toBe(400);
    expect(res.body.extra[field]).toBe(message);
  });

  it('refuses the same bank and user twice', async () => {
    const account = await newAccount(2);
    const res = await post('/bank/bank-accounts', { bank_name: 2, user: account.user, pwd: 'x' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(4093);
  });

  it.each([
    [{ interval: 4 }, 'interval', 'Must between 5 and 120'],
    [{ interval: 121 }, 'interval', 'Must between 5 and 120'],
    [{ interval: '' }, 'interval', 'Must between 5 and 120'],
    [{ interval: 'ten' }, 'interval', 'Must between 5 and 120'],
    [{ interval: 7.5 }, 'interval', 'Must between 5 and 120'],
    [{ range: [[600, 300]] }, 'range.0', 'The start of a range must be before its end'],
    [
      {
        range: [
          [0, 3600],
          [1800, 7200],
        ],
      },
      'range.1',
      'Ranges must not overlap',
    ],
    [{ range: [[0, 90000]] }, 'range.0.1', 'Times must be between 00:00:00 and 24:00:00'],
    [{ range: 'all day' }, 'range', 'Give a list of [start, end] seconds of the day'],
    [{ webhook: '' }, 'webhook', 'Please enter webhook url'],
    [{ webhook: 'ftp://hooks.example.com' }, 'webhook', 'Please give the full address including http(s)://'],
    [{ api_key: '   ' }, 'api_key', 'Please enter API key'],
    [{ user: '' }, 'user', 'Please enter user'],
    [{ pwd: ' ' }, 'pwd', 'Please enter password'],
    [{ status: 2 }, 'status', 'Status must be 1 (Enable) or 99 (Disable)'],
  ])('refuses the update %j with the spec text and changes nothing', async (body, field, message) => {
    const account = await newAccount();
    const res = await put(`/bank/bank-account/${account.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.extra[field]).toBe(message);
    const after = await get(`/bank/bank-accounts/${account.id}`);
    expect(after.body.data).toMatchObject({
      monitor_interval: 30,
      monitor_range: [[0, 86400]],
      webhook: null,
      status: 1,
    });
  });

  it.each(['http://169.254.169.254/latest/meta-data', 'http://127.0.0.1:8080/hook', 'http://10.0.0.5/hook'])(
    'refuses the webhook %s through the outbound guard',
    async (webhook) => {
      const account = await newAccount();
      const res = await put(`/bank/bank-account/${account.id}`, { webhook });
      expect(res.status).toBe(400);
      expect(res.body.extra.webhook).toBeTruthy();
    },
  );

  it('saves every field trimmed, and keeps secrets out of rows and lists', async () => {
    const account = await newAccount();
    const res = await put(`/bank/bank-account/${account.id}`, {
      interval: '15',
      range: [
        [36000, 43200],
        [0, 3600],
      ],
      remark: '  main  ',
      mobile: ' 09 123 ',
      holder: ' Daw Hla ',
      webhook: ' https://hooks.example.com/bank ',
      api_key: ' key-0123456789abcdef ',
      pwd: ' new-secret-pw ',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      monitor_interval: 15,
      monitor_range: [
        [0, 3600],
        [36000, 43200],
      ],
      remark: 'main',
      mobile: '09 123',
      holder: 'Daw Hla',
      webhook: 'https://hooks.example.com/bank',
      pwd: '******',
      api_key: '******',
    });
    const list = await get(`/bank/bank-accounts?page_size=0`);
    expect(list.status).toBe(200);
    expect(Number(list.headers['x-consumed-rcu'])).toBeGreaterThan(0);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain('new-secret-pw');
    expect(text).not.toContain('key-0123456789abcdef');
    expect(text).not.toContain('pwd_enc');
    expect(text).not.toContain('session');

    const pwd = await client.get(`/api/v1/bank/bank-account/${account.id}/pwd`, { token: revealToken });
    expect(pwd.body.data).toEqual({ id: account.id, pwd: 'new-secret-pw' });
    const key = await client.get(`/api/v1/bank/bank-account/${account.id}/api-key`, { token: revealToken });
    expect(key.body.data).toEqual({ id: account.id, api_key: 'key-0123456789abcdef' });
  });

  it('lists by status and bank from the index, with exact counts', async () => {
    const a = await newAccount(2);
    await put(`/bank/bank-account/${a.id}`, { status: 99 });
    const res = await get('/bank/bank-accounts?status=99&bank_name=2&page_size=100');
    expect(res.status).toBe(200);
    expect(res.body.data.result.map((r: { id: number }) => r.id)).toContain(a.id);
    expect(res.body.data.total_exact).toBeUndefined();
    expect(res.body.data.result.every((r: { status: number }) => r.status === 99)).toBe(true);
  });
});

describe('init, sub-accounts and statements against the sandbox banks', () => {
  it.each([1, 2] as const)(
    'inits bank %i: its sub-accounts with their detail, a new transaction as a statement and a balance stat',
    async (bank) => {
      const account = await newAccount(bank);
      const init = await refreshed(account.id);
      expect(init.status, JSON.stringify(init.body)).toBe(200);
      expect(init.body.data).toMatchObject({ polled: true, status: 1, error: null });
      const detail = await get(`/bank/bank-accounts/${account.id}`);
      const subs = detail.body.data.subs as {
        id: number;
        no: string;
        status: number;
        detail: Record<string, unknown>;
      }[];
      expect(subs.length).toBeGreaterThanOrEqual(2);
      expect(detail.body.data.time_zone).toBe('Asia/Yangon');
      expect(Object.keys(subs[0]?.detail ?? {})).toEqual(
        expect.arrayContaining(
          bank === 1 ? ['customer_name', 'account_branch', 'balances'] : ['name', 'branch', 'hold_amount'],
        ),
      );
      const sub = subs[0] as { id: number; no: string };
      const fromSub = await get(`/bank/bank-account/${account.id}/sub`);
      expect(fromSub.body.data.map((s: { id: number }) => s.id)).toEqual(subs.map((s) => s.id));

      await control('transaction', { bank, user: account.user, no: sub.no, amount: 1234, inflow: true, name: 'U Ba' });
      const sts = await post(`/bank/sub-accounts/${sub.id}/refresh-sts`);
      expect(sts.status, JSON.stringify(sts.body)).toBe(200);
      const statements = await get(`/bank/statements?sub_account_id=%3D-${sub.id}&page_size=100`);
      expect(Number(statements.headers['x-consumed-rcu'])).toBeGreaterThan(0);
      const rows = statements.body.data.result as StatementLine[];
      expect(rows.filter((r) => r.amount === 1234 && r.inflow)).toHaveLength(1);
      const row = rows.find((r) => r.amount === 1234) as { human_date: string; name: string };
      // KBZ gives the date only and a sender; AYA the date and time and no sender.
      expect(row.human_date).toMatch(bank === 1 ? /^\d{4}-\d{2}-\d{2}$/ : /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      if (bank === 1) expect(row.name.toLowerCase()).toBe('u ba'); // KBZ writes senders in capitals

      // The same lines read again are stored once. The sandbox's feed may add a transaction of its own
      // in between (one every ~40 s a sub-account), so the new read may hold more rows, never a copy.
      await post(`/bank/bank-account/${account.id}/refresh-sts`);
      const again = await get(`/bank/statements?sub_account_id=%3D-${sub.id}&page_size=100`);
      const firstIds = new Set(rows.map((r) => r.id));
      // The bank's own line (the row's delivery fields move on between two reads).
      const line = (r: StatementLine) => JSON.stringify([r.human_date, r.inflow, r.name, r.amount]);
      const firstLines = new Set(rows.map(line));
      const againRows = again.body.data.result as StatementLine[];
      expect(againRows.filter((r) => firstIds.has(r.id))).toHaveLength(rows.length);
      expect(againRows.filter((r) => !firstIds.has(r.id) && firstLines.has(line(r)))).toEqual([]);

      const stats = await get(`/bank/balance-stat?account_id=%3D-${account.id}&page_size=100`);
      expect(stats.status).toBe(200);
      expect(Number(stats.headers['x-consumed-rcu'])).toBeGreaterThan(0);
    },
  );

  it('shows a wrong password as Incorrect (2) after a refresh', async () => {
    const account = await newAccount(1, uniqueName('wrong').toLowerCase(), 'not-the-password');
    const res = await post(`/bank/bank-account/${account.id}/refresh`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ polled: true, status: 2 });
    expect((await get(`/bank/bank-accounts/${account.id}`)).body.data.status).toBe(2);
  });

  it('enables and disables sub-accounts in a batch, and refuses unknown ids without changing any', async () => {
    const account = await newAccount(2);
    await refreshed(account.id);
    const subs = (await get(`/bank/bank-account/${account.id}/sub`)).body.data as { id: number }[];
    const ids = subs.map((s) => s.id);

    const off = await put('/bank/sub-accounts/batch', { sub_account_ids: ids, status: 99 });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const listed = await get(`/bank/sub-accounts?account_id=%3D-${account.id}&status=99&page_size=100`);
    expect(listed.body.data.result.map((s: { id: number }) => s.id).sort()).toEqual([...ids].sort());
    expect(listed.body.data.result[0].account).toEqual({ user: account.user });

    const bad = await put('/bank/sub-accounts/batch', { sub_account_ids: [ids[0], 99_999_999], status: 1 });
    expect(bad.status).toBe(404);
    expect(
      (await get(`/bank/sub-accounts?account_id=%3D-${account.id}&status=99&page_size=100`)).body.data.total_count,
    ).toBe(ids.length);

    const on = await put('/bank/sub-accounts/batch', { sub_account_ids: ids, status: 1 });
    expect(on.status).toBe(200);
    const enabled = await get(`/bank/sub-accounts?account_id=%3D-${account.id}&status=1&page_size=100`);
    expect(enabled.body.data.total_count).toBe(ids.length);

    const one = await put(`/bank/sub-accounts/${ids[0]}`, { status: 99 });
    expect(one.body.data).toMatchObject({ id: ids[0], status: 99 });
  });

  it.each([
    [{ sub_account_ids: [], status: 1 }, 'sub_account_ids', 'Please select some sub accounts first'],
    [{ sub_account_ids: [1], status: 3 }, 'status', 'Status must be 1 (Enable) or 99 (Disable)'],
  ])('refuses the batch %j with its text', async (body, field, message) => {
    const res = await put('/bank/sub-accounts/batch', body);
    expect(res.status).toBe(400);
    expect(res.body.extra[field]).toBe(message);
  });

  it('answers 404 for an unknown account', async () => {
    const res = await get('/bank/bank-accounts/99999999');
    expect(res).toMatchObject({ status: 404, body: { code: 40410 } });
  });
});
