// The holes issue 24 item 5 found in the inbound bank webhook and the webhook URLs, tried as an
// attacker would against the running stack; each of these failed before the fix:
// - a disabled (or Incorrect) account's API key still pushed statements;
// - a refused key answered otherwise than an unknown one;
// - wrong keys could be guessed without limit;
// - a webhook URL could carry a user and password, listed and audited in clear;
// - the Telegram test message had no rate limit.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { login, loopbackAddress } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;

const put = (path: string, body: unknown) => client.put(`/api/v1${path}`, { token, body });
const post = (path: string, body?: unknown) => client.post(`/api/v1${path}`, { token, body: body ?? {} });
const get = (path: string) => client.get(`/api/v1${path}`, { token });

/** A client address of its own (all of 127/8 is this machine): its refused keys count apart. */
let addressSeq = Math.floor(Math.random() * (1 << 20));
const newAddress = () => loopbackAddress(77, addressSeq++);

const inbound = (key: string, body: unknown, from: string) =>
  client.post('/webhook/bank', { body, headers: { 'content-type': 'application/json', 'x-api-key': key }, from });

const statements = async (accountId: number) =>
  (await get(`/bank/statements?account_id=%3D-${accountId}&page_size=100`)).body.data.total_count as number;

/** An initialised KBZ account with an API key, enabled and not polled (its range is the day's first second). */
async function keyedAccount() {
  const created = await post('/bank/bank-accounts', {
    bank_name: 1,
    user: uniqueName('hole').toLowerCase(),
    pwd: 'sandbox123',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as number;
  await refreshedAccount(post, id);
  const apiKey = `key-${uniqueName('hk')}-0123456789`;
  const upd = await put(`/bank/bank-account/${id}`, { api_key: apiKey, range: [[0, 1]] });
  expect(upd.status, JSON.stringify(upd.body)).toBe(200);
  const subs = (await get(`/bank/bank-account/${id}/sub`)).body.data as { no: string }[];
  const no = (subs[0] as { no: string }).no;
  let n = 0;
  const statement = () => ({
    bank: 1,
    type: 1,
    content: { bank: 1, account: no, sender: 'U Ba', remark: `hole ${++n}`, send_date: '2026-11-23', amount: '12.00' },
  });
  return { id, apiKey, statement, baseline: await statements(id) };
}

beforeAll(async () => {
  token = await k.admin();
});
afterAll(() => k.destroy());

describe('a refused API key', () => {
  it('of a disabled account answers exactly as an unknown key, and stores nothing', async () => {
    const a = await keyedAccount();
    const from = newAddress();
    expect((await inbound(a.apiKey, a.statement(), from)).status).toBe(200);
    expect(await statements(a.id)).toBe(a.baseline + 1);

    expect((await put(`/bank/bank-account/${a.id}`, { status: 99 })).status).toBe(200);
    const disabled = await inbound(a.apiKey, a.statement(), from);
    const unknown = await inbound(`${a.apiKey}-not-it`, a.statement(), from);
    expect(disabled.status).toBe(401);
    const answer = ({ code, msg }: { code: number; msg: string }) => ({ code, msg });
    expect(answer(disabled.body)).toEqual(answer(unknown.body));
    expect(answer(disabled.body)).toEqual({ code: 4010, msg: 'Invalid API key' });
    expect(await statements(a.id)).toBe(a.baseline + 1);
  });

  it('of an account the bank refuses (Incorrect) is refused too: only an enabled account may push', async () => {
    const a = await keyedAccount();
    // A wrong password: the next poll marks the account 2 Incorrect.
    await put(`/bank/bank-account/${a.id}`, { pwd: 'not-the-password' });
    await post(`/bank/bank-account/${a.id}/refresh`);
    expect((await get(`/bank/bank-accounts/${a.id}`)).body.data.status).toBe(2);
    const res = await inbound(a.apiKey, a.statement(), newAddress());
    expect(res).toMatchObject({ status: 401, body: { msg: 'Invalid API key' } });
    expect(await statements(a.id)).toBe(a.baseline);
  });

  it('is guessed a few times only: from one address, wrong keys turn into 429 with Retry-After, for a right key too', async () => {
    const a = await keyedAccount();
    const from = newAddress();
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof inbound>> | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await inbound(`guess-${i}`, a.statement(), from);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(refused?.status).toBe(429);
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The guesser's address is refused whatever key it sends; another address is not.
    expect((await inbound(a.apiKey, a.statement(), from)).status).toBe(429);
    expect((await inbound(a.apiKey, a.statement(), newAddress())).status).toBe(200);
    expect(await statements(a.id)).toBe(a.baseline + 1);
  });
});

describe('a webhook URL', () => {
  it('with a user or password is refused with a clear 400, and stored, listed and audited nowhere', async () => {
    const a = await keyedAccount();
    const secret = 'hunter2pass';
    for (const webhook of [`https://ops:${secret}@hooks.example.com/bank`, 'https://ops@hooks.example.com/bank']) {
      const res = await put(`/bank/bank-account/${a.id}`, { webhook });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.extra).toEqual({ webhook: 'The address must not contain a user name or password' });
    }
    expect((await get(`/bank/bank-accounts/${a.id}`)).body.data.webhook).toBeNull();
    const listed = await get('/bank/bank-accounts?page_size=100');
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const audit = await client.get('/api/v1/super/audit?page_size=50', { token });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).not.toContain(secret);
  });
});

describe('the Telegram test message', () => {
  it('has a per-user budget like the reveals: 429 with Retry-After past it', async () => {
    // A super user of its own: the budget is per user, and other files send test messages as admin.
    const username = uniqueName('tgtest').toLowerCase();
    await k.createUser(username, 'tg-test-pass-1', 'super');
    const own = await login(stack.url, username, 'tg-test-pass-1');
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 12; i++) {
      last = await client.post('/api/v1/super/notification/tg/test', { token: own, body: { category: 'check' } });
      statuses.push(last.status);
      if (last.status === 429) break;
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(6);
    expect(statuses.slice(0, -1).every((s) => s !== 429)).toBe(true);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    expect(last?.body.msg).toMatch(/^Too many test messages; try again in \d+ s$/);
  });
});
