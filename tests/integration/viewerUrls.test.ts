// What a viewer reads of the outbound webhook URLs (issue 43, "Also found"): a receiver's token in its
// URL's user info, query or fragment is masked in the bank accounts and the delivery history, and a
// viewer cannot search the history's URLs for it; operators and super users see them whole.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';
import { until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const hooks = stack.env.SANDBOX_WEBHOOK_URL as string;
let admin: string;
let viewer: string;

const api = (method: 'get' | 'put' | 'post', path: string, body?: unknown, token = admin) =>
  client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

let account: { id: number; url: string; token: string };

beforeAll(async () => {
  admin = await k.admin();
  const name = uniqueName('urlviewer');
  await k.createUser(name, 'viewer-pass-1', 'viewer');
  viewer = await login(stack.url, name, 'viewer-pass-1');

  const created = await api('post', '/bank/bank-accounts', {
    bank_name: 1,
    user: uniqueName('vu').toLowerCase(),
    pwd: 'sandbox123',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as number;
  await refreshedAccount((path) => api('post', path), id);
  const secret = `rcv-${uniqueName('t')}`;
  const hook = uniqueName('vhook').toLowerCase();
  // The receiver's own token in the query, as many receivers take it.
  const url = `${hooks}/hooks/${hook}?token=${secret}&v=1#part`;
  const apiKey = `key-${uniqueName('k')}`;
  const upd = await api('put', `/bank/bank-account/${id}`, { webhook: url, api_key: apiKey, range: [[0, 1]] });
  expect(upd.status, JSON.stringify(upd.body)).toBe(200);
  account = { id, url, token: secret };

  // One delivery, so the history has a row with the URL.
  const subs = (await api('get', `/bank/bank-account/${id}/sub`)).body.data as { no: string }[];
  const pushed = await client.post('/webhook/bank', {
    body: {
      bank: 1,
      type: 1,
      content: {
        bank: 1,
        account: subs[0].no,
        sender: 'U Ba',
        remark: 'Order viewer',
        send_date: '2026-11-23',
        send_time: '',
        amount: '12.50',
      },
    },
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
  });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
});

afterAll(() => k.destroy());

describe("a bank account's webhook URL", () => {
  it('reaches a viewer with its query and fragment masked, and an operator whole', async () => {
    const masked = account.url.replace(/\?.*$/, '?***#***');
    const list = (await api('get', `/bank/bank-accounts?page_size=100`, undefined, viewer)).body.data.result as {
      id: number;
      webhook: string | null;
    }[];
    expect(list.find((a) => a.id === account.id)?.webhook).toBe(masked);
    const detail = await api('get', `/bank/bank-accounts/${account.id}`, undefined, viewer);
    expect(detail.body.data.webhook).toBe(masked);
    expect(JSON.stringify(detail.body)).not.toContain(account.token);

    expect((await api('get', `/bank/bank-accounts/${account.id}`)).body.data.webhook).toBe(account.url);
  });
});

describe('the delivery history', () => {
  const historyOf = async (token: string) => {
    const notes = (await api('get', `/notifications-bank?account_id=%3D-${account.id}&page_size=10`)).body.data
      .result as { id: number }[];
    const rows = [];
    for (const n of notes) {
      const res = await api(
        'get',
        `/notifications-bank/history?notification_id=%3D-${n.id}&page_size=10`,
        undefined,
        token,
      );
      rows.push(...(res.body.data.result as { callback_url: string | null; channel: number }[]));
    }
    return rows.filter((r) => r.callback_url);
  };

  it("shows a viewer the callback_url masked, and refuses a viewer's search of it", async () => {
    const whole = await until(
      'the delivery history row',
      () => historyOf(admin),
      (rows) => rows.length > 0,
      {
        ms: 60_000,
      },
    );
    expect(whole[0].callback_url).toBe(account.url);
    const seen = await historyOf(viewer);
    expect(seen[0].callback_url).toBe(account.url.replace(/\?.*$/, '?***#***'));
    expect(JSON.stringify(seen)).not.toContain(account.token);

    // Asking for the token is refused, by a filter or a search in that field; a search of the remarks is not.
    const filtered = await api(
      'get',
      `/notifications-bank/history?callback_url=${encodeURIComponent(account.token)}`,
      undefined,
      viewer,
    );
    expect(filtered.status).toBe(403);
    expect(filtered.body.code).toBe(ErrorCode.Forbidden);
    const searched = await api(
      'get',
      `/notifications-bank/history?keyword=${account.token}&keywordField=callback_url`,
      undefined,
      viewer,
    );
    expect(searched.status).toBe(403);
    const remarks = await api(
      'get',
      `/notifications-bank/history?keyword=${account.token}&keywordField=remark`,
      undefined,
      viewer,
    );
    expect(remarks.status, JSON.stringify(remarks.body)).toBe(200);
    expect(remarks.body.data.result).toEqual([]);
  });
});
