import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import type { BankWebhookBody } from '../../shared/schemas/bankWebhook.js';
import { statementEntity } from '../../functions/bank/entities.js';
import { LEASE_MS, pollAccount } from '../../functions/bank/poll.js';
import { readingOf } from '../../functions/bank/record.js';
import * as service from '../../functions/bank/service.js';
import { bankStore, type StoredBankAccount } from '../../functions/bank/store.js';
import { deliverBankNotification } from '../../functions/bankWebhook/deliver.js';
import { recordInbound } from '../../functions/bankWebhook/inbound/recordInbound.js';
import { runToCrash } from '../../functions/lib/db/faults.js';
import { findUniqueClaim } from '../../functions/lib/db/unique.js';
import { notificationStore } from '../../functions/notifications/store.js';
import { pauseRule } from '../../functions/bankWebhook/retryPolicy.js';
import { sweepFollowUps } from '../../functions/lib/db/outbox.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { setupBankTest } from '../bank/setup.js';
import { sent, setupQueues } from './checkRig.js';
import type { PausedNotice } from '../../functions/bankWebhook/pause.js';
import { newNotificationId, writeNotification } from '../../functions/notifications/service.js';

// Crash points of the bank's statement path (issue 25): a poll that records a transaction (its
// statements, their notifications and deliveries, the balance change with its stat, notification
// and delivery, the sub-account and its reading), the inbound webhook's pushes and a webhook
// delivery (claim, send, settle, history), each crashed
// right after every write in turn (lib/db/faults.ts). Recovery is what the product does: the
// follow-up sweeper, then the next poll (its lease expired) or the pusher sending again. Then each
// statement is stored once with one notification, the balance change once and reconciled against
// exactly those statements, every notification's delivery enqueued, nothing left pending; a
// delivery settled once, its history and claim as its outcome says, sent twice only when the crash
// fell between the receiver's answer and the settling (nothing can tell then whether it arrived).

const at = (hms: string) => Date.parse(`2026-11-23T${hms}+06:30`);
const { bank, clock } = setupBankTest(at('09:00:00'));
setupQueues();

const deps = () => ({
  store: bankStore(),
  clock,
  timeZone: async () => 'Asia/Yangon',
  // The bank chat is on: every notification has a delivery to enqueue.
  chatOn: async () => true,
});
const { Statement, Balance } = BankNotificationCategory.values;
const statementRows = createRepository(statementEntity);

let users = 0;
/** An account polled twice (its baseline, then a scheduled poll): nothing of it is pending. */
async function polledAccount(balance = 1000) {
  const user = `crash${++users}`;
  const no = `${user}-001`;
  bank.open(user, 'pw-1', [{ no, balance }]);
  const account = await service.createAccount({ bank_name: 1, user, pwd: 'pw-1' });
  await service.updateAccount(account.id, { interval: 5, range: [[0, 86_400]] });
  await pollAccount(deps(), { accountId: account.id, mode: 'init' });
  clock.set(clock.now() + 5_000);
  await pollAccount(deps(), { accountId: account.id, mode: 'poll' });
  return { id: account.id, user, no };
}

/**
 * An account whose webhook (`url`) has failed one time short of the pause rule for over its
 * window, with a statement of each amount recorded by a poll: its next failed delivery pauses it.
 */
async function accountShortOfPause(url: string, ...amounts: number[]) {
  const rule = pauseRule();
  const acc = await polledAccount();
  await service.updateAccount(acc.id, { webhook: url });
  for (let i = 1; i < rule.failures; i++) await bankStore().recordFailure(acc.id, clock.now() - rule.overMs);
  for (const amount of amounts) bank.transact(acc.user, acc.no, amount);
  clock.set(clock.now() + 5_000);
  await pollAccount({ ...deps(), chatOn: async () => false }, { accountId: acc.id, mode: 'poll' });
  return acc;
}

const byAccount = (id: number): ListQuery => ({
  ...emptyListQuery({ page_size: 0 }),
  filters: { account_id: { kind: 'number', op: '=', value: id } },
});

/** What the product does after a crash: the sweeper, then (the dead holder's lease expired) the next poll. */
async function recover(recordAgain: () => Promise<unknown>): Promise<void> {
  await sweepFollowUps({ before: Date.now() + 1 });
  clock.set(clock.now() + LEASE_MS + 1_000);
  await recordAgain();
}

/** Nothing pending: the sweeper's index holds no row. */
async function expectNothingPending(context: string): Promise<void> {
  const left = await sweepFollowUps({ before: Date.now() + 1 });
  expect(left, `${context}: follow-ups still pending after recovery`).toEqual({ rows: 0, applied: 0, failed: 0 });
}

/**
 * Every statement once, with one notification; `balances` balance changes, each with one
 * notification and reconciled; the sub-account's balance what the bank says and nothing left to
 * reconcile; every notification's delivery enqueued once (twice at most for the one whose send was
 * the last write before the crash: the sweeper sends it again, and the delivery drops the copy).
 */
async function expectSettled(
  acc: { id: number; user: string; no: string },
  want: { statements: number; balances: number; amount: number; repeats?: boolean },
  context: string,
  lastWrite: string | undefined,
): Promise<void> {
  const store = bankStore();
  const listed = (await store.listStatements(byAccount(acc.id))).result;
  expect(listed, `${context}: statements`).toHaveLength(want.statements);
  // With their keys (a stored field no reply shows).
  const statements = await Promise.all(listed.map(async (s) => (await statementRows.getWithHidden(s.id)) ?? s));
  expect(new Set(statements.map((s) => s.key)).size, `${context}: statement keys`).toBe(want.statements);
  const notifications = (await store.listNotifications(byAccount(acc.id))).result;
  for (const s of statements) {
    const own = notifications.filter((n) => n.category === Statement && n.business_id === s.id);
    // A push of a statement stored before has a notification of its own, the repeat (its delivery
    // ends Duplication): the one its claim names is there once, whatever else.
    const named = await findUniqueClaim('bank_statement', 'key', s.key);
    expect(
      own.filter((n) => n.id === named?.also.notification).length,
      `${context}: notification of statement ${s.id}`,
    ).toBe(1);
    if (!want.repeats) expect(own.length, `${context}: notifications of statement ${s.id}`).toBe(1);
  }
  const stats = (await store.listBalanceStats(byAccount(acc.id))).result;
  expect(stats, `${context}: balance stats`).toHaveLength(want.balances);
  for (const stat of stats) {
    expect(stat, `${context}: balance stat ${stat.id}`).toMatchObject({ reconciled: true, difference: 0 });
    const own = notifications.filter((n) => n.category === Balance && n.business_id === stat.id);
    expect(own.length, `${context}: notifications of balance stat ${stat.id}`).toBe(1);
  }
  if (want.balances)
    expect(
      stats.reduce((a, s) => a + s.amount, 0),
      `${context}: balance moved`,
    ).toBe(want.amount);
  const sub = (await store.subsOf(acc.id))[0];
  expect(sub?.available_balance, `${context}: sub-account balance`).toBe(1000 + want.amount);
  // The reading as a poll or push takes it (a balance change recorded after it was saved reconciled its sum).
  const { reading } = readingOf(sub ?? {}, (await store.readings(sub ? [sub] : [])).get(sub?.id ?? 0));
  expect(reading, `${context}: nothing left to reconcile`).toMatchObject({ pending_cents: 0, pending_count: 0 });
  const messages = (await sent('notify')).filter((m) => notifications.some((n) => n.id === m.notification_id));
  let repeated = 0;
  for (const n of notifications.filter((x) => x.notify_tg === NotifyStatus.values.Pending)) {
    const count = messages.filter((m) => m.notification_id === n.id).length;
    expect(count, `${context}: deliveries of notification ${n.id}`).toBeGreaterThanOrEqual(1);
    if (count > 1) repeated++;
    expect(count, `${context}: deliveries of notification ${n.id}`).toBeLessThanOrEqual(2);
  }
  expect(repeated, `${context}: deliveries sent twice`).toBeLessThanOrEqual(
    lastWrite?.startsWith('SendMessage') ? 1 : 0,
  );
  await expectNothingPending(context);
}

/**
 * Runs `act` once per crash point of `sequence`, from the first write on, until it completes
 * without reaching the crash; each point on an account of its own. Answers how many writes it made.
 */
async function everyCrashPoint(
  sequence: string,
  scenario: {
    prepare(): Promise<{ id: number; user: string; no: string }>;
    act(acc: { id: number; user: string; no: string }): Promise<unknown>;
    again(acc: { id: number; user: string; no: string }): Promise<unknown>;
    want: { statements: number; balances: number; amount: number; repeats?: boolean };
  },
): Promise<number> {
  for (let n = 1; n < 100; n++) {
    const acc = await scenario.prepare();
    const { crashed, lastWrite } = await runToCrash({ sequence, afterWrites: n }, () => scenario.act(acc));
    const context = `${sequence}, crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
    await recover(() => scenario.again(acc));
    await expectSettled(acc, scenario.want, context, crashed ? lastWrite : undefined);
    if (!crashed) return n - 1;
  }
  throw new Error(`${sequence} did not complete within 100 writes`);
}

const poll = (acc: { id: number }) => pollAccount(deps(), { accountId: acc.id, mode: 'poll' });

async function withSecrets(id: number): Promise<StoredBankAccount> {
  return (await bankStore().getAccountWithSecrets(id, { consistent: true })) as StoredBankAccount;
}

const pushedStatement = (no: string, amount: number, remark: string): BankWebhookBody => ({
  bank: 1,
  type: 1,
  content: {
    bank: 1,
    account: no,
    sender: 'U Aung',
    remark,
    send_date: '2026-11-23',
    send_time: '',
    amount: `${amount}`,
  },
});

const pushedBalance = (no: string, pre: number, cur: number): BankWebhookBody => ({
  bank: 1,
  type: 2,
  content: { bank: 1, account: no, pre_bal: `${pre}`, cur_bal: `${cur}`, amount: `${cur - pre}` },
});

describe('a crash at any write of the bank statement path leaves nothing the product does not complete', () => {
  it('a poll that records a transaction: statements, notifications, the balance change, deliveries', async () => {
    const writes = await everyCrashPoint('bank_poll', {
      async prepare() {
        const acc = await polledAccount();
        // Two transactions since the last poll: two statements and one balance change of +55.
        bank.transact(acc.user, acc.no, 40);
        bank.transact(acc.user, acc.no, 15);
        clock.set(clock.now() + 5_000);
        return acc;
      },
      act: poll,
      again: poll,
      want: { statements: 2, balances: 1, amount: 55 },
    });
    // Claim, row and notification per statement, the change of the sub-account, its stat and notification, ...
    expect(writes).toBeGreaterThan(12);
  });

  it('an inbound push of a statement, then of its balance: each pushed again after a crash', async () => {
    let writes = 0;
    for (const step of ['statement', 'balance'] as const) {
      writes += await everyCrashPoint('bank_inbound', {
        async prepare() {
          const acc = await polledAccount();
          if (step === 'balance')
            await recordInbound(deps(), [await withSecrets(acc.id)], pushedStatement(acc.no, 30, 'pushed'));
          clock.set(clock.now() + 5_000);
          return acc;
        },
        act: async (acc) => {
          const body = step === 'statement' ? pushedStatement(acc.no, 30, 'pushed') : pushedBalance(acc.no, 1000, 1030);
          await recordInbound(deps(), [await withSecrets(acc.id)], body);
        },
        // The pusher sends the same body again (it got no answer), then its balance if it had not yet.
        again: async (acc) => {
          await recordInbound(deps(), [await withSecrets(acc.id)], pushedStatement(acc.no, 30, 'pushed'));
          await recordInbound(deps(), [await withSecrets(acc.id)], pushedBalance(acc.no, 1000, 1030));
        },
        want: { statements: 1, balances: 1, amount: 30, repeats: true },
      });
    }
    expect(writes).toBeGreaterThan(6);
  });
});

/**
 * A webhook receiver on this machine (allowed as a private host for the test): records what it got
 * and answers `status`, de-duplicating by `webhook-id` as Standard Webhooks asks (a message it
 * accepted before is answered 200 again and not taken twice).
 */
const receiver = {
  status: 200,
  /** The first request of each message is answered 500 (then `status`): an attempt to retry. */
  failFirst: false,
  got: [] as { notification: number; id: string; accepted: boolean }[],
  ids: new Set<string>(),
  url: '',
};
/** What the receiver got of a notification, repeats included, and what it took (each message once). */
const receivedOf = (notification: number) => {
  const got = receiver.got.filter((g) => g.notification === notification);
  return { sends: got.length, accepted: got.filter((g) => g.accepted).length, ids: new Set(got.map((g) => g.id)) };
};
let server: Server | undefined;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      const repeat = receiver.ids.has(id);
      const first = !receiver.got.some((g) => g.id === id);
      const status = repeat ? 200 : receiver.failFirst && first ? 500 : receiver.status;
      if (status < 300) receiver.ids.add(id);
      receiver.got.push({ notification: Number(id.split('_')[1]), id, accepted: status < 300 && !repeat });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status < 300, size: body.length }));
    });
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  process.env.ALLOWED_PRIVATE_HOSTS = `127.0.0.1:${port}`;
  receiver.url = `http://127.0.0.1:${port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
});

const delivery = () => ({
  store: bankStore(),
  sendTelegram: async () => {
    throw new Error('no chat in this test');
  },
  notice: { newId: newNotificationId, write: (id: number, n: PausedNotice) => writeNotification({ id, ...n }) },
  timeZone: async () => 'Asia/Yangon',
  now: () => clock.now(),
});

describe('a crash at any write of a webhook delivery leaves it settled once', () => {
  it('a message to the bank chat: the channel settled, its history, sent twice only if the crash cut the settling', async () => {
    const { Success } = NotifyStatus.values;
    let sends = 0;
    const chat = {
      ...delivery(),
      sendTelegram: async () => {
        sends++;
        return {
          status: Success,
          reason: null,
          retryable: false,
          pushed_at: clock.now(),
          answer: { ok: true },
          lines: 4,
        };
      },
    };
    for (let n = 1; n < 60; n++) {
      // A statement of an account with the bank chat on (and no webhook), recorded by a poll as usual.
      const acc = await polledAccount();
      bank.transact(acc.user, acc.no, 25);
      clock.set(clock.now() + 5_000);
      await poll(acc);
      const store = bankStore();
      const note = (await store.listNotifications(byAccount(acc.id))).result.find((x) => x.category === Statement);
      if (!note) throw new Error('no statement notification');
      const message = { kind: 'bank_notification' as const, notification_id: note.id, channel: 2 as const, attempt: 1 };
      sends = 0;
      const { crashed, lastWrite } = await runToCrash({ sequence: 'bank_delivery', afterWrites: n }, () =>
        deliverBankNotification(message, chat),
      );
      const context = `bank_delivery (chat), crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
      const settled = (await store.getNotification(note.id))?.notify_tg !== NotifyStatus.values.Pending;
      await sweepFollowUps({ before: Date.now() + 1 });
      await deliverBankNotification(message, chat);
      const after = await store.getNotification(note.id);
      expect(after?.notify_tg, `${context}: channel`).toBe(Success);
      expect(sends, `${context}: sends`).toBeGreaterThanOrEqual(1);
      expect(sends, `${context}: sends`).toBeLessThanOrEqual(settled ? 1 : 2);
      const history = await store.historyOf(note.id);
      expect(history.length, `${context}: history rows`).toBe(1);
      const statement = (await store.listStatements(byAccount(acc.id))).result[0];
      expect(statement?.notify_status, `${context}: the statement's status`).toBe(after?.notify_status);
      await expectNothingPending(context);
      if (!crashed) return;
    }
    throw new Error('bank_delivery did not complete within 60 writes');
  });

  for (const outcome of ['delivered', 'refused'] as const)
    it(`an attempt the receiver ${outcome === 'delivered' ? 'answers 2xx' : 'refuses with a 4xx'}: the channel settled, its history, the statement's claim`, async () => {
      receiver.status = outcome === 'delivered' ? 200 : 400;
      const { Success, Failed } = NotifyStatus.values;
      const crashedAfter: string[] = [];
      for (let n = 1; n < 60; n++) {
        // A statement of an account with a webhook (and no chat), recorded by a poll as usual.
        const acc = await polledAccount();
        await service.updateAccount(acc.id, { webhook: receiver.url });
        bank.transact(acc.user, acc.no, 25);
        clock.set(clock.now() + 5_000);
        await pollAccount({ ...deps(), chatOn: async () => false }, { accountId: acc.id, mode: 'poll' });
        const store = bankStore();
        const note = (await store.listNotifications(byAccount(acc.id))).result.find((x) => x.category === Statement);
        if (!note) throw new Error('no statement notification');
        const message = {
          kind: 'bank_notification' as const,
          notification_id: note.id,
          channel: 1 as const,
          attempt: 1,
        };
        const { crashed, lastWrite } = await runToCrash({ sequence: 'bank_delivery', afterWrites: n }, () =>
          deliverBankNotification(message, delivery()),
        );
        const context = `bank_delivery, crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
        if (lastWrite) crashedAfter.push(lastWrite);
        const settledBeforeRecovery =
          (await store.getNotification(note.id))?.notify_webhook !== NotifyStatus.values.Pending;
        // Recovery: the sweeper, then the queue gives the message again (its consumer never deleted it).
        await sweepFollowUps({ before: Date.now() + 1 });
        await deliverBankNotification(message, delivery());
        const after = await store.getNotification(note.id);
        expect(after?.notify_webhook, `${context}: channel`).toBe(outcome === 'delivered' ? Success : Failed);
        const { sends, accepted, ids } = receivedOf(note.id);
        // Settled before the crash: never sent again. Else the attempt ran again: twice at most, as
        // the same message (one webhook-id), which the receiver took once.
        expect(sends, `${context}: sends`).toBeGreaterThanOrEqual(1);
        expect(sends, `${context}: sends`).toBeLessThanOrEqual(settledBeforeRecovery ? 1 : 2);
        expect(ids.size, `${context}: one message, one webhook-id`).toBe(1);
        expect(accepted, `${context}: accepted`).toBe(outcome === 'delivered' ? 1 : 0);
        if (lastWrite === 'WebhookRequest') expect(sends, `${context}: sent again after the crash`).toBe(2);
        const history = await store.historyOf(note.id);
        expect(history.length, `${context}: history rows`).toBeGreaterThanOrEqual(1);
        expect(history.length, `${context}: history rows`).toBeLessThanOrEqual(sends);
        // A repeat the receiver had taken is answered 200 by it: the settling attempt records that.
        for (const h of history) expect(h.code, `${context}: history`).toBe(outcome === 'delivered' ? 200 : 400);
        // The statement copies the outcome; its claim is kept once delivered, given back when refused.
        const statement = (await store.listStatements(byAccount(acc.id))).result[0];
        expect(statement?.notify_status, `${context}: the statement's status`).toBe(after?.notify_status);
        const other = await store.claimDelivery(note.business_id, note.id + 1_000_000, clock.now());
        expect(other.claimed, `${context}: another notification may deliver the statement`).toBe(outcome === 'refused');
        if (other.claimed) await store.releaseDelivery(note.business_id, note.id + 1_000_000);
        await expectNothingPending(context);
        if (!crashed) {
          expect(n).toBeGreaterThan(3);
          // Among them the one that matters to a receiver: after its answer, before the settling.
          expect(crashedAfter).toContain('WebhookRequest');
          return;
        }
      }
      throw new Error('bank_delivery did not complete within 60 writes');
    });

  it('an attempt that pauses the webhook: paused once, the operators told once, the channel Channel Closed, its history', async () => {
    receiver.status = 400;
    const { ChannelClosed } = NotifyStatus.values;
    const store = bankStore();
    for (let n = 1; n < 60; n++) {
      const acc = await accountShortOfPause(receiver.url, 25);
      const note = (await store.listNotifications(byAccount(acc.id))).result.find((x) => x.category === Statement);
      if (!note) throw new Error('no statement notification');
      const message = { kind: 'bank_notification' as const, notification_id: note.id, channel: 1 as const, attempt: 1 };
      const { crashed, lastWrite } = await runToCrash({ sequence: 'bank_delivery', afterWrites: n }, () =>
        deliverBankNotification(message, delivery()),
      );
      const context = `bank_delivery (pause), crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
      const settledBeforeRecovery =
        (await store.getNotification(note.id))?.notify_webhook !== NotifyStatus.values.Pending;
      // Recovery: the sweeper, then the queue gives the message again.
      await sweepFollowUps({ before: Date.now() + 1 });
      await deliverBankNotification(message, delivery());
      const after = await store.getNotification(note.id);
      expect(after?.notify_webhook, `${context}: channel`).toBe(ChannelClosed);
      const { sends, accepted } = receivedOf(note.id);
      expect(sends, `${context}: sends`).toBeGreaterThanOrEqual(1);
      expect(sends, `${context}: sends`).toBeLessThanOrEqual(settledBeforeRecovery ? 1 : 2);
      expect(accepted, `${context}: accepted`).toBe(0);
      const history = await store.historyOf(note.id);
      expect(history.length, `${context}: history rows`).toBe(1);
      // The attempt's own row; or, when the crash fell between the pause and the settling, the row of
      // the message given again, which found the webhook paused and sent nothing.
      if (history[0]?.code !== 400) expect(history[0]?.remark, `${context}: history`).toMatch(/webhook is paused/);
      // Paused once: one pause instant, and the one notice is the one keyed by it.
      const state = await store.webhookState(acc.id);
      expect(state.paused_at, `${context}: paused`).not.toBeNull();
      expect(await store.pausedAccounts(), `${context}: among the paused`).toContain(acc.id);
      const notices = (await notificationStore().list(emptyListQuery({ page_size: 0 }))).result.filter(
        (x) => x.title === 'Bank webhook paused' && x.caption === `Account ${acc.user}`,
      );
      expect(notices.length, `${context}: notices`).toBe(1);
      const claim = await findUniqueClaim('bank_webhook_pause', 'notice', `${acc.id}@${state.paused_at}`);
      expect(claim?.owner, `${context}: the notice of this pause`).toBe(notices[0]?.id);
      const statement = (await store.listStatements(byAccount(acc.id))).result[0];
      expect(statement?.notify_status, `${context}: the statement's status`).toBe(after?.notify_status);
      const other = await store.claimDelivery(note.business_id, note.id + 1_000_000, clock.now());
      expect(other.claimed, `${context}: another notification may deliver the statement`).toBe(true);
      await store.releaseDelivery(note.business_id, note.id + 1_000_000);
      await expectNothingPending(context);
      if (!crashed) {
        // Failure count, history id, pause (2), notice id, settling, history row, claim, notice claim, notice.
        expect(n).toBeGreaterThan(9);
        return;
      }
    }
    throw new Error('bank_delivery did not complete within 60 writes');
  });

  for (const via of ['webhook', 'chat'] as const)
    it(`an attempt ${via === 'webhook' ? 'to the webhook' : 'to the bank chat'} that fails and is retried: the next attempt sent once it is settled, one chain, each attempt one row`, async () => {
      receiver.status = 200;
      receiver.failFirst = true;
      const { Success, Failed } = NotifyStatus.values;
      const store = bankStore();
      const base = process.env.BANK_WEBHOOK_RETRY_BASE_S;
      process.env.BANK_WEBHOOK_RETRY_BASE_S = '0';
      const crashedAfter: string[] = [];
      // The chat: the first send of each notification fails retryably (Telegram answered 5xx), then succeeds.
      const chatSends = new Map<number, number>();
      const deliveryOf = (notificationId: number) => ({
        ...delivery(),
        sendTelegram: async () => {
          const sends = (chatSends.get(notificationId) ?? 0) + 1;
          chatSends.set(notificationId, sends);
          return {
            status: sends === 1 ? Failed : Success,
            reason: sends === 1 ? 'Telegram answered 502' : null,
            retryable: sends === 1,
            pushed_at: sends === 1 ? null : clock.now(),
            answer: { ok: sends > 1 },
            lines: 4,
          };
        },
      });
      const channel = via === 'webhook' ? (1 as const) : (2 as const);
      try {
        for (let n = 1; n < 60; n++) {
          const acc = await polledAccount();
          if (via === 'webhook') await service.updateAccount(acc.id, { webhook: receiver.url });
          bank.transact(acc.user, acc.no, 25);
          clock.set(clock.now() + 5_000);
          await pollAccount({ ...deps(), chatOn: async () => via === 'chat' }, { accountId: acc.id, mode: 'poll' });
          const note = (await store.listNotifications(byAccount(acc.id))).result.find((x) => x.category === Statement);
          if (!note) throw new Error('no statement notification');
          const first = { kind: 'bank_notification' as const, notification_id: note.id, channel, attempt: 1 };
          const { crashed, lastWrite } = await runToCrash({ sequence: 'bank_delivery', afterWrites: n }, () =>
            deliverBankNotification(first, deliveryOf(note.id)),
          );
          const context = `bank_delivery (${via} retry), crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
          if (lastWrite) crashedAfter.push(lastWrite);
          const stored = await store.getNotification(note.id);
          const settledBeforeRecovery = (via === 'webhook' ? stored?.webhook_attempt : stored?.tg_attempt) === 2;
          const retriesOf = async () =>
            (await sent('notify')).filter(
              (m) => m.notification_id === note.id && m.channel === channel && m.attempt === 2,
            ).length;
          const retriedBeforeRecovery = await retriesOf();
          // Never before the attempt is settled: the retry is the settling's follow-up.
          if (!settledBeforeRecovery) expect(retriedBeforeRecovery, `${context}: retry before settling`).toBe(0);
          // Recovery: the sweeper, the queue gives the first message again, then every message the
          // queue holds for this notification runs (copies included) until none is new.
          await sweepFollowUps({ before: Date.now() + 1 });
          await deliverBankNotification(first, deliveryOf(note.id));
          const ran = new Set<number>();
          for (let more = true; more; ) {
            more = false;
            const queued = (await sent('notify')).map((m, i) => [i, m] as const);
            for (const [i, m] of queued)
              if (m.notification_id === note.id && m.channel === channel && (m.attempt ?? 0) > 1 && !ran.has(i)) {
                ran.add(i);
                more = true;
                await deliverBankNotification({ ...first, attempt: m.attempt as number }, deliveryOf(note.id));
                await sweepFollowUps({ before: Date.now() + 1 });
              }
          }
          const after = await store.getNotification(note.id);
          expect(via === 'webhook' ? after?.notify_webhook : after?.notify_tg, `${context}: channel`).toBe(Success);
          // The failure, then the success; a third send only when the crash fell after a send, before
          // its settling (the attempt ran again).
          if (via === 'webhook') {
            const { sends, accepted } = receivedOf(note.id);
            expect(accepted, `${context}: accepted`).toBe(1);
            expect(sends, `${context}: sends`).toBeLessThanOrEqual(settledBeforeRecovery ? 2 : 3);
          } else expect(chatSends.get(note.id), `${context}: sends`).toBeLessThanOrEqual(settledBeforeRecovery ? 2 : 3);
          const history = await store.historyOf(note.id);
          const attempts = history.map((h) => Number(/attempt (\d+) of/.exec(h.remark ?? '')?.[1])).sort();
          // One chain: each attempt recorded once, in order from 1; the failure's row whenever it was settled.
          expect(attempts, `${context}: attempts recorded`).toEqual(attempts.map((_, i) => i + 1));
          if (settledBeforeRecovery) expect(history.length, `${context}: rows`).toBe(2);
          // The retry's message: sent by the settling's follow-up, once; twice only when the crash fell
          // between its send and the entry's clear (the sweeper sends it again; the copy was dropped above).
          expect(await retriesOf(), `${context}: the retry's message`).toBeLessThanOrEqual(
            retriedBeforeRecovery ? 2 : 1,
          );
          await expectNothingPending(context);
          if (!crashed) {
            expect(crashedAfter).toContain(via === 'webhook' ? 'WebhookRequest' : 'TelegramSend');
            expect(crashedAfter.some((w) => w.startsWith('SendMessage'))).toBe(true);
            return;
          }
        }
        throw new Error('bank_delivery did not complete within 60 writes');
      } finally {
        receiver.failFirst = false;
        if (base === undefined) delete process.env.BANK_WEBHOOK_RETRY_BASE_S;
        else process.env.BANK_WEBHOOK_RETRY_BASE_S = base;
      }
    });

  it('two deliveries reaching the pause at once, the first dying at any write: one pause, one notice, of the pause stored', async () => {
    receiver.status = 400;
    const { ChannelClosed } = NotifyStatus.values;
    const store = bankStore();
    for (let n = 1; n < 60; n++) {
      // Two statements to deliver.
      const acc = await accountShortOfPause(receiver.url, 25, 35);
      const notes = (await store.listNotifications(byAccount(acc.id))).result.filter((x) => x.category === Statement);
      const [first, second] = notes;
      if (!first || !second) throw new Error('two statement notifications expected');
      const message = (id: number) => ({
        kind: 'bank_notification' as const,
        notification_id: id,
        channel: 1 as const,
        attempt: 1,
      });
      // The second delivery read the webhook's state before the first paused it (both ran at once).
      const before = await store.webhookState(acc.id);
      const { crashed, lastWrite } = await runToCrash({ sequence: 'bank_delivery', afterWrites: n }, () =>
        deliverBankNotification(message(first.id), delivery()),
      );
      const context = `bank_delivery (pause at once), crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
      clock.set(clock.now() + 1_000);
      const sawBefore = Object.assign(Object.create(store) as typeof store, { webhookState: async () => before });
      await deliverBankNotification(message(second.id), { ...delivery(), store: sawBefore });
      // The sweeper; the first message is not given again (yet): the notice must not wait for it.
      await sweepFollowUps({ before: Date.now() + 1 });
      const state = await store.webhookState(acc.id);
      expect(state.paused_at, `${context}: paused`).not.toBeNull();
      expect(await store.pausedAccounts(), `${context}: among the paused`).toContain(acc.id);
      const notices = async () =>
        (await notificationStore().list(emptyListQuery({ page_size: 0 }))).result.filter(
          (x) => x.title === 'Bank webhook paused' && x.caption === `Account ${acc.user}`,
        );
      expect((await notices()).length, `${context}: notices`).toBe(1);
      const claim = await findUniqueClaim('bank_webhook_pause', 'notice', `${acc.id}@${state.paused_at}`);
      expect(claim?.owner, `${context}: the notice of the pause stored`).toBe((await notices())[0]?.id);
      expect((await store.getNotification(second.id))?.notify_webhook, `${context}: the second`).toBe(ChannelClosed);
      // Then the queue gives the first message again: still one pause, one notice; the first settled.
      await deliverBankNotification(message(first.id), delivery());
      await sweepFollowUps({ before: Date.now() + 1 });
      expect((await store.webhookState(acc.id)).paused_at, `${context}: the same pause`).toBe(state.paused_at);
      expect((await notices()).length, `${context}: notices`).toBe(1);
      expect((await store.getNotification(first.id))?.notify_webhook, `${context}: the first`).toBe(ChannelClosed);
      expect((await store.historyOf(first.id)).length, `${context}: the first's history`).toBe(1);
      await expectNothingPending(context);
      if (!crashed) return;
    }
    throw new Error('bank_delivery did not complete within 60 writes');
  });
});
