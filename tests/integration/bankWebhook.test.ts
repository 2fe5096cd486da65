// Bank notifications to the account's webhook, and the inbound bank webhook, through the local
// stack (issue 15 items 2 and 3): deliveries land on the sandbox receiver signed per Standard
// Webhooks (verified with the reference library, as the Help page shows), one history row per
// attempt, retries on 5xx, Failed after the documented attempts (4 in the test stack), Duplication,
// the auto-pause (5 failures in the test stack) with resume and Replay; every bad inbound call gets
// its status and writes nothing.
import { Webhook } from 'standardwebhooks';
import { beforeAll, afterAll, describe, expect, inject, it } from 'vitest';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';
import { type ReceivedRequest, receivedBy, until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
const hooks = stack.env.SANDBOX_WEBHOOK_URL as string;

const post = (path: string, body?: unknown) => client.post(`/api/v1${path}`, { token, body: body ?? {} });
const put = (path: string, body: unknown) => client.put(`/api/v1${path}`, { token, body });
const get = (path: string) => client.get(`/api/v1${path}`, { token });
const inbound = (key: string | undefined, body: unknown, raw?: string) =>
  client.post('/webhook/bank', {
    ...(raw === undefined ? { body } : { rawBody: raw }),
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-api-key': key }) },
  });

const received = (hook: string) => receivedBy(hooks, hook);
const behave = (hook: string, behaviour: unknown) =>
  fetch(`${hooks}/sandbox/hooks/${hook}/behaviour`, { method: 'PUT', body: JSON.stringify(behaviour) });

const statements = async (accountId: number) =>
  (await get(`/bank/statements?account_id=%3D-${accountId}&page_size=100`)).body.data;

/**
 * An account (KBZ unless told) on the sandbox bank, initialised (its sub-accounts known), with a
 * webhook on its own hook, enabled (only an enabled account's key may push) and not polled: its
 * range is the first second of the day.
 */
async function hookedAccount(bank: 1 | 2 = 1) {
  const hook = uniqueName('hook').toLowerCase();
  const created = await post('/bank/bank-accounts', {
    bank_name: bank,
    user: uniqueName('wh').toLowerCase(),
    pwd: 'sandbox123',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as number;
  await refreshedAccount(post, id);
  const apiKey = `key-${uniqueName('k')}`;
  const upd = await put(`/bank/bank-account/${id}`, {
    webhook: `${hooks}/hooks/${hook}`,
    api_key: apiKey,
    range: [[0, 1]],
  });
  expect(upd.status, JSON.stringify(upd.body)).toBe(200);
  const subs = (await get(`/bank/bank-account/${id}/sub`)).body.data as { id: number; no: string }[];
  // The init stored the sub-account's history as No Notify (-2) statements: the baseline.
  const baseline = (await statements(id)).total_count as number;
  return { id, hook, apiKey, no: (subs[0] as { no: string }).no, baseline };
}

let seq = 0;
/** A KBZ statement (a sender, no time), or an AYA one (a time, no sender). */
const statement = (no: string, amount = '150.25', bank: 1 | 2 = 1) => ({
  bank,
  type: 1,
  content: {
    bank,
    account: no,
    sender: bank === 1 ? 'U Ba' : '',
    remark: `Order ${++seq} <script>`,
    send_date: '2026-11-23',
    send_time: bank === 1 ? '' : '10:00:00',
    amount,
  },
});

const notifications = async (accountId: number) =>
  (await get(`/notifications-bank?account_id=%3D-${accountId}&page_size=100&sort=%7B%22id%22%3A%22asc%22%7D`)).body.data
    .result as {
    id: number;
    business_id: number;
    /** Push status: 0 NoNeed, 1 Pending, 2 Pushed. */
    status_webhook: number;
    pushed_webhook_at: number | null;
    /** Notify status of the webhook's attempts. */
    notify_webhook: number;
    status_tg: number;
    pushed_tg_at: number | null;
    notify_tg: number;
    notify_status: number;
  }[];
const history = async (notificationId: number) =>
  (await get(`/notifications-bank/history?notification_id=%3D-${notificationId}&page_size=100`)).body.data.result as {
    code: number | null;
    remark: string;
    callback_url: string;
    params: unknown;
  }[];

beforeAll(async () => {
  token = await k.admin();
});
afterAll(() => k.destroy());

describe('inbound POST /webhook/bank', () => {
  it('refuses every bad call with its status and writes nothing', async () => {
    const a = await hookedAccount();
    const good = statement(a.no);
    expect((await inbound(undefined, good)).status).toBe(401);
    expect((await inbound('not-a-key', good)).status).toBe(401);
    const cases: [unknown, string][] = [
      [{ ...good, content: { ...good.content, amount: 'ten' } }, 'content.amount'],
      [{ ...good, content: { ...good.content, account: '' } }, 'content.account'],
      [{ ...good, content: { ...good.content, account: '999-unknown' } }, 'content.account'],
      [{ ...good, content: { ...good.content, send_date: '23/11/2026' } }, 'content.send_date'],
      [{ ...good, content: { ...good.content, send_time: '10:00:00' } }, 'content.send_time'],
      [{ ...good, content: { ...good.content, bank: 2 } }, 'content.bank'],
      [{ ...good, bank: 3 }, 'bank'],
      [{ ...good, type: 3 }, 'type'],
    ];
    for (const [body, field] of cases) {
      const res = await inbound(a.apiKey, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(Object.keys(res.body.extra ?? {}), JSON.stringify(res.body)).toContain(field);
    }
    const big = JSON.stringify({ ...good, content: { ...good.content, remark: 'x'.repeat(70 * 1024) } });
    expect((await inbound(a.apiKey, undefined, big)).status).toBe(413);
    expect((await statements(a.id)).total_count).toBe(a.baseline);
    expect(await notifications(a.id)).toEqual([]);
    expect(await received(a.hook)).toEqual([]);
  });

  it('answers 429 past the per-key budget (30 a minute in the test stack)', async () => {
    const a = await hookedAccount();
    const bad = { bank: 1, type: 1, content: {} };
    // The budget is a fixed minute: calls that straddle a minute's end count afresh in the next one,
    // so the 429 comes after at least 30 calls and at most 60, and every call before it was taken.
    const statuses: number[] = [];
    while (statuses.length < 61 && statuses.at(-1) !== 429) statuses.push((await inbound(a.apiKey, bad)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length - 1).toBeGreaterThanOrEqual(30);
    expect(statuses.length - 1).toBeLessThanOrEqual(60);
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
  });

  it('records a statement as the poller does and delivers it, signed, to the webhook once', async () => {
    const a = await hookedAccount();
    const body = statement(a.no);
    const res = await inbound(a.apiKey, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ recorded: true, duplicate: false });
    const listed = await statements(a.id);
    expect(listed.total_count).toBe(a.baseline + 1);
    const mine = listed.result.find((x: { name: string }) => x.name === 'U Ba');
    expect(mine).toMatchObject({ amount: 150.25, inflow: true, human_date: '2026-11-23' });
    // Pending (0) until its delivery settles, which runs in the background and may have come first.
    expect([0, 1]).toContain(mine.notify_status);

    const [delivery] = await until(
      'the delivery',
      () => received(a.hook),
      (r) => r.length === 1,
    );
    const sent = delivery as ReceivedRequest;
    expect(JSON.parse(sent.body)).toEqual(body);
    expect(sent.headers['x-api-key']).toBe(a.apiKey);
    // The Help page's recipe: the account's whsec_ secret and the reference library.
    const secret = (await get(`/bank/bank-account/${a.id}/webhook-secret`)).body.data.webhook_secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(sent.body, sent.headers)).toEqual(body);
    expect(() => new Webhook(secret).verify(sent.body.replace('150.25', '999.99'), sent.headers)).toThrow();

    const [n] = await until(
      'Pushed',
      () => notifications(a.id),
      (ns) => ns[0]?.status_webhook === 2,
    );
    // Pushed (2) at a time, because the receiver answered 2xx (Success); no chat: nothing to push there.
    expect(n).toMatchObject({
      status_webhook: 2,
      pushed_webhook_at: expect.any(Number),
      notify_webhook: 1,
      status_tg: 0,
      notify_tg: -1,
      notify_status: 1,
    });
    const rows = await history((n as { id: number }).id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: 200, callback_url: `${hooks}/hooks/${a.hook}` });
    expect(JSON.stringify(rows)).not.toContain(a.apiKey);
    expect(JSON.stringify(rows)).not.toContain(secret.slice(6));
    expect((await statements(a.id)).result.find((x: { id: number }) => x.id === mine.id)).toMatchObject({
      notify_status: 1,
      notified_at: n?.pushed_webhook_at,
    });

    // The same statement again: nothing new recorded, a notification that ends Duplication, no second POST.
    const again = await inbound(a.apiKey, body);
    expect(again.body.data).toEqual({ recorded: false, duplicate: true });
    const ns = await until(
      'Duplication',
      () => notifications(a.id),
      (l) => l[1]?.notify_webhook === 2,
    );
    expect(ns.map((x) => x.business_id)).toEqual([mine.id, mine.id]);
    // Not pushed, for a settled reason: nothing left to push.
    expect(ns[1]).toMatchObject({ status_webhook: 0, pushed_webhook_at: null, notify_status: 2 });
    expect(await received(a.hook)).toHaveLength(1);
    expect((await statements(a.id)).total_count).toBe(a.baseline + 1);
  });

  it('records a balance change reconciled against the pushed statements, and delivers it with numeric strings', async () => {
    const a = await hookedAccount(2);
    const sub = (
      (await get(`/bank/bank-account/${a.id}/sub`)).body.data as { no: string; available_balance: number }[]
    ).find((s) => s.no === a.no) as { available_balance: number };
    const pre = sub.available_balance;
    expect((await inbound(a.apiKey, statement(a.no, '100.00', 2))).status).toBe(200);
    expect((await inbound(a.apiKey, statement(a.no, '-30.50', 2))).status).toBe(200);
    // The pusher sends the body's bank as a number, and the content's as a number (taken too).
    const balance = {
      bank: 2,
      type: 2,
      content: { bank: 2, account: a.no, pre_bal: pre.toFixed(2), cur_bal: (pre + 69.5).toFixed(2), amount: '69.50' },
    };
    const res = await inbound(a.apiKey, balance);
    expect(res.body.data).toEqual({ recorded: true, duplicate: false });
    expect((await inbound(a.apiKey, balance)).body.data).toEqual({ recorded: false, duplicate: true });
    const stats = (await get(`/bank/balance-stat?account_id=%3D-${a.id}&page_size=100`)).body.data.result;
    expect(stats).toMatchObject([{ pre_bal: pre, cur_bal: pre + 69.5, amount: 69.5, reconciled: true, difference: 0 }]);
    const all = await until(
      'three deliveries',
      () => received(a.hook),
      (r) => r.length === 3,
    );
    const bodies = all.map((r) => JSON.parse(r.body));
    // Spec section 1: every balance content field is a numeric string, the bank too ("2"); the body's bank stays 2.
    const sent = bodies.find((b) => b.type === 2);
    expect(sent).toEqual({ ...balance, content: { ...balance.content, bank: '2' } });
    expect(sent.content.bank).toBe('2');
    expect(Object.values(sent.content).every((v) => typeof v === 'string')).toBe(true);
    expect(bodies.find((b) => b.type === 1 && b.content.amount === '-30.50')).toMatchObject({
      bank: 2,
      content: { bank: 2, sender: '', send_time: '10:00:00' },
    });
  });

  it('rotates the signing secret: the next delivery verifies with the new one only', async () => {
    const a = await hookedAccount();
    const old = (await get(`/bank/bank-account/${a.id}/webhook-secret`)).body.data.webhook_secret as string;
    const rotated = (await post(`/bank/bank-account/${a.id}/webhook-secret`)).body.data.webhook_secret as string;
    expect(rotated).not.toBe(old);
    await inbound(a.apiKey, statement(a.no));
    const [sent] = (await until(
      'the delivery',
      () => received(a.hook),
      (r) => r.length === 1,
    )) as ReceivedRequest[];
    expect(() => new Webhook(rotated).verify(sent?.body ?? '', sent?.headers ?? {})).not.toThrow();
    expect(() => new Webhook(old).verify(sent?.body ?? '', sent?.headers ?? {})).toThrow();
  });
});

describe('outbound delivery against the sandbox receiver', () => {
  it('retries a 500 and ends Success with two history rows', async () => {
    const a = await hookedAccount();
    await behave(a.hook, { mode: 'fail', times: 1 });
    await inbound(a.apiKey, statement(a.no));
    const [n] = await until(
      'Pushed',
      () => notifications(a.id),
      (ns) => ns[0]?.status_webhook === 2,
    );
    expect(n).toMatchObject({ notify_webhook: 1, pushed_webhook_at: expect.any(Number) });
    const rows = await history((n as { id: number }).id);
    expect(rows.map((r) => r.code).sort()).toEqual([200, 500]);
    expect((await received(a.hook)).map((r) => r.status)).toEqual([500, 200]);
  });

  it('does not retry a 4xx other than 429', async () => {
    const a = await hookedAccount();
    await behave(a.hook, { mode: 'status', status: 404 });
    await inbound(a.apiKey, statement(a.no));
    const [n] = await until(
      'Failed',
      () => notifications(a.id),
      (ns) => ns[0]?.notify_webhook === 9,
    );
    expect(n).toMatchObject({ status_webhook: 1, pushed_webhook_at: null, notify_status: 9 });
    expect((await history((n as { id: number }).id)).map((r) => r.code)).toEqual([404]);
  });

  it('does not replay a notification whose attempts are still under way: it is delivered once', async () => {
    const a = await hookedAccount();
    await behave(a.hook, { mode: 'ok', delay_ms: 3000 });
    await inbound(a.apiKey, statement(a.no, '40.00'));
    const [n] = await notifications(a.id);
    const replay = await post('/notifications-bank/replay', { ids: [n?.id] });
    expect(replay.body.data).toEqual({
      queued: [],
      skipped: [{ id: n?.id, reason: 'Still being delivered; replay it once its attempts have ended' }],
    });
    await until(
      'Pushed',
      () => notifications(a.id),
      (ns) => ns[0]?.status_webhook === 2,
    );
    expect(await received(a.hook)).toHaveLength(1);
    expect(await history(n?.id as number)).toHaveLength(1);
  });

  it('ends Failed after the documented attempts, pauses after repeated failures, resumes and replays', async () => {
    const a = await hookedAccount();
    await behave(a.hook, { mode: 'always' });
    await inbound(a.apiKey, statement(a.no, '10.00'));
    const [first] = await until(
      'Failed',
      () => notifications(a.id),
      (ns) => ns[0]?.notify_webhook === 9,
    );
    // Retries exhausted: not pushed, so still Pending, and Failed says why; the statement reads Failed.
    expect(first).toMatchObject({ status_webhook: 1, pushed_webhook_at: null, notify_webhook: 9, notify_status: 9 });
    // The statement copies its notification's status in a follow-up of the settling
    // (bank/channelStatus.ts setBusinessStatus): applied just after it, so awaited.
    const failedStatement = await until(
      'statement Failed',
      async () =>
        (await statements(a.id)).result.find(
          (x: { id: number }) => x.id === (first as { business_id: number }).business_id,
        ),
      (x: { notify_status?: number } | undefined) => x?.notify_status === 9,
    );
    expect(failedStatement).toMatchObject({ notify_status: 9, notified_at: null });
    const rows = await history((first as { id: number }).id);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.code === 500)).toBe(true);

    // The fifth failure in a row pauses the webhook: Channel Closed, and a notification says so.
    await inbound(a.apiKey, statement(a.no, '20.00'));
    const paused = await until(
      'Channel Closed',
      () => notifications(a.id),
      (ns) => ns[1]?.notify_webhook === 3,
    );
    expect(paused[1]).toMatchObject({ status_webhook: 0, pushed_webhook_at: null });
    expect((await get(`/bank/bank-account/${a.id}/webhook-state`)).body.data).toMatchObject({ paused: true });
    // The notice is a follow-up of the Channel Closed settling (docs/notifications.md): written just
    // after the channel reads Channel Closed, not with it. Once, for this account.
    const pausedNotices = async () =>
      ((await get('/notifications?page_size=100')).body.data.result as { title: string; link: string }[]).filter(
        (x) => x.title === 'Bank webhook paused' && x.link === `/bank/account?id=${a.id}`,
      );
    await until('the paused notice', pausedNotices, (l) => l.length > 0);
    // While paused nothing is sent.
    await inbound(a.apiKey, statement(a.no, '30.00'));
    await until(
      'Channel Closed',
      () => notifications(a.id),
      (ns) => ns[2]?.notify_webhook === 3 && ns[2]?.status_webhook === 0,
    );
    expect(await received(a.hook)).toHaveLength(5);
    expect(await pausedNotices()).toHaveLength(1);

    // An operator resumes it, the receiver is fixed, and the Failed one is replayed.
    await behave(a.hook, { mode: 'ok' });
    const resumed = await post(`/bank/bank-account/${a.id}/webhook-resume`);
    expect(resumed.body.data).toMatchObject({ paused: false, consecutive_failures: 0 });
    const replay = await post('/notifications-bank/replay', { failed: true, account_id: a.id });
    expect(replay.body.data.queued).toEqual([(first as { id: number }).id]);
    await until(
      'Pushed',
      () => notifications(a.id),
      (ns) => ns[0]?.status_webhook === 2 && ns[0]?.notify_webhook === 1,
    );
    expect(await history((first as { id: number }).id)).toHaveLength(5);
    // Chosen ones too; an already delivered one is never sent twice.
    const ns = await notifications(a.id);
    const chosen = await post('/notifications-bank/replay', { ids: ns.map((x) => x.id) });
    expect(chosen.body.data.skipped).toEqual([{ id: ns[0]?.id, reason: 'Already delivered to the webhook' }]);
    await until(
      'all delivered',
      () => notifications(a.id),
      (l) => l.every((x) => x.status_webhook === 2 && x.notify_webhook === 1 && x.pushed_webhook_at !== null),
    );
    expect(await received(a.hook)).toHaveLength(8);
  });
});

describe('bank notifications on Telegram (bank_enabled)', () => {
  const tgUrl = stack.env.SANDBOX_TELEGRAM_URL as string;
  const TOKEN = `7001002004:AAH-${uniqueName('banktg').replace(/[^A-Za-z0-9_-]/g, '')}xxxxxxxxxxxx`;
  const settings = (bankChat: string, bank_enabled: boolean) => ({
    bot_token: TOKEN,
    check_chat_id: '',
    bank_chat_id: bankChat,
    check_enabled: false,
    bank_enabled,
    per_subtask: false,
  });

  it('sends the statement to the bank chat with its text escaped, and records the TG attempt', async () => {
    const chat = `-100${Date.now() % 1_000_000_000}`;
    const on = await client.put('/api/v1/super/notification/tg', { token, body: settings(chat, true) });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    try {
      const a = await hookedAccount();
      const pushed = statement(a.no, '77.00');
      await inbound(a.apiKey, pushed);
      const [n] = await until(
        'TG and webhook Pushed',
        () => notifications(a.id),
        (ns) => ns.length === 1 && ns[0]?.status_tg === 2 && ns[0]?.status_webhook === 2,
      );
      expect(n).toMatchObject({ notify_tg: 1, pushed_tg_at: expect.any(Number), notify_webhook: 1, notify_status: 1 });
      // The bank chat is the stack's, and other files' statements may reach it while this test has it
      // on: this statement's messages are those with its remark (escaped).
      const remark = pushed.content.remark.replace('<script>', '&lt;script&gt;');
      const messages = (
        (await (await fetch(`${tgUrl}/sandbox/messages?chat_id=${chat}`)).json()).messages as { text: string }[]
      ).filter((m) => m.text.includes(remark));
      expect(messages).toHaveLength(1);
      expect(messages[0]?.text).toContain('&lt;script&gt;');
      expect(messages[0]?.text).not.toContain('<script>');
      const rows = (
        await get(`/notifications-bank/history?notification_id=%3D-${(n as { id: number }).id}&page_size=100`)
      ).body.data.result as { channel: number }[];
      expect(rows.map((r) => r.channel).sort()).toEqual([1, 2]);
    } finally {
      await client.put('/api/v1/super/notification/tg', { token, body: settings('', false) });
    }
  });
});
