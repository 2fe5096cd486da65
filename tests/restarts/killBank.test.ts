import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import { api, login } from '../helpers/api.js';
import { uniqueName } from '../helpers/authKit.js';
import { type Row, tableAfterCrash } from '../helpers/crashedTable.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';
import { killTree, type RunningStack, startStackProcess, stopStackProcess } from '../helpers/stackProcess.js';
import { acceptedBy, receivedBy, until } from '../helpers/until.js';
import { startSandboxWebhook } from '../../scripts/sandbox/webhook/server.js';

// Issue 25, item 4, during bank activity: the local stack's whole process tree is SIGKILLed while it
// records a statement a bank pushed to it (POST /webhook/bank), then started again on the same
// DATA_DIR, and the pusher, which got no answer, sends the same statement again. The kill is aimed:
// the stack runs with the fault hook armed (lib/db/faults.ts) to freeze its process right after the
// second write of the new statement (`bank_statement`: its key's claim, naming the statement's and its
// notification's ids, then its row; or, when the process takes a new block of ids first, the claim).
// After the restart the push finds the claim and writes what it lacks under the ids it names. That
// restart is armed too, at the statement's delivery, right after the receiver answered 2xx and before
// the settling (`bank_delivery:WebhookRequest`): killed again there and started a third time, the
// delivery runs again (the start requeues the Pending one) and the receiver gets the same message,
// same `webhook-id`, a second time; de-duplicating by it as Standard Webhooks asks, it takes it once.
// A balance push then matches the statement, and each notification is accepted by the webhook once.
// The receiver is the sandbox one (scripts/sandbox/webhook/server.ts) run by this test, outside the
// killed tree, so it remembers across the kills what it received and accepted.
// (Pushes, not polls: the sandbox bank keeps its transactions in memory, so after a restart it would
// not show the cut line again, as a real bank does.)

const PASSWORD = 'kill-bank-pass-1';
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-kill-bank-'));
const marker = join(dataDir, 'crashed.json');
const deliveryMarker = join(dataDir, 'crashed-delivery.json');
// The webhook receiver, outlives the stack's kills.
const receiver = await startSandboxWebhook({ port: 0 });
// The dead push's lease frees itself sooner than the default 45 s (the push sent again waits for it);
// the stack may deliver to the receiver on this machine.
const env = { BANK_LEASE_MS: '8000', ALLOWED_PRIVATE_HOSTS: new URL(receiver.url).host };
let stack: RunningStack | undefined;

afterAll(async () => {
  if (stack) await stopStackProcess(stack.child);
  await receiver.stop();
  if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
});

/**
 * The account's statements a kill cut: their key claimed (naming the statement's and its
 * notification's ids) but the row not written, or written without its notification (which of the
 * two depends on whether the write took a new block of ids first): found by what each lacks.
 */
function cutStatements(rows: Row[], accountId: number): Row[] {
  const ofAccount = (type: string) =>
    rows.filter((r) => String(r.pk).startsWith(`${type}#`) && r.account_id === accountId);
  const stored = new Map(ofAccount('bank_statement').map((r) => [r.id, r]));
  const notified = new Set(ofAccount('bank_notification').map((n) => n.business_id));
  return rows
    .filter((r) => String(r.pk).startsWith('unique#bank_statement#key#'))
    .filter((c) => {
      const row = stored.get(c.owner);
      return !row || (row.notify_status !== NotifyStatus.values.NoNotify && !notified.has(c.owner));
    });
}

describe('a SIGKILL of the whole stack while it records a pushed statement, and a restart on the same data', () => {
  it('stores the statement once, with its notification, balance change and delivery once each', async () => {
    stack = await startStackProcess({
      dataDir,
      adminPassword: PASSWORD,
      env: { ...env, PATROL_CRASH_AT: 'bank_statement:2', PATROL_CRASH_MARKER: marker },
    });
    let client = api(stack.url);
    let token = await login(stack.url, 'admin', PASSWORD);
    const call = (method: 'get' | 'post' | 'put', path: string, body?: unknown) =>
      client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
    const hooks = receiver.url;
    const hook = uniqueName('killbank').toLowerCase();
    const apiKey = `key-${uniqueName('kb')}`;
    const push = (body: unknown) =>
      client.post('/webhook/bank', { body, headers: { 'content-type': 'application/json', 'x-api-key': apiKey } });

    // A KBZ account of the sandbox bank, its sub-accounts and balances read (the baseline: history, no
    // statement sequence), delivering to a hook of its own, taking pushes, not polled (its range is
    // the day's first second).
    const created = await call('post', '/bank/bank-accounts', {
      bank_name: 1,
      user: uniqueName('kb').toLowerCase(),
      pwd: 'sandbox123',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const account = created.body.data as { id: number; user: string };
    await refreshedAccount((path) => call('post', path, {}), account.id);
    const upd = await call('put', `/bank/bank-account/${account.id}`, {
      webhook: `${hooks}/hooks/${hook}`,
      api_key: apiKey,
      range: [[0, 1]],
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const subs = (await call('get', `/bank/bank-account/${account.id}/sub`)).body.data as {
      id: number;
      no: string;
      available_balance: number;
    }[];
    const sub = subs[0];
    if (!sub) throw new Error('no sub-account');
    const statement = {
      bank: 1,
      type: 1,
      content: {
        bank: 1,
        account: sub.no,
        sender: 'U Kill',
        remark: 'kill test',
        send_date: '2026-11-27',
        send_time: '',
        amount: '777',
      },
    };

    // The push: the process freezes at the aimed write, so the pusher never gets its answer.
    const answer = push(statement).catch(() => undefined);
    await until('the aimed crash', async () => existsSync(marker), Boolean, { ms: 90_000, everyMs: 50 });
    const killed = await killTree(stack.child);
    stack = undefined;
    await answer;
    expect(killed).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({
      sequence: 'bank_statement',
      lastWrite: 'PutItemCommand',
    });

    // What the kill left: one statement's key claimed, with its row or its notification not written.
    const cut = cutStatements(await tableAfterCrash(dataDir), account.id);
    expect(cut, 'statements claimed before the kill, without their row or notification').toHaveLength(1);
    const { owner: statementId, notification: notificationId } = cut[0] as Row;

    // The restart: the same DATA_DIR, the hook armed at the delivery, after the receiver's answer.
    stack = await startStackProcess({
      dataDir,
      adminPassword: PASSWORD,
      env: { ...env, PATROL_CRASH_AT: 'bank_delivery:WebhookRequest', PATROL_CRASH_MARKER: deliveryMarker },
    });
    client = api(stack.url);
    token = await login(stack.url, 'admin', PASSWORD);
    const { Statement, Balance } = BankNotificationCategory.values;
    // The pusher sends the statement again (its lease waits out the dead push's). Its delivery follows
    // at once and freezes the process after the receiver's 2xx (maybe before this push's answer).
    const frozen = until('the aimed crash of the delivery', async () => existsSync(deliveryMarker), Boolean, {
      ms: 90_000,
      everyMs: 50,
    });
    for (let tries = 0; ; tries++) {
      const again = await Promise.race([push(statement), frozen.then(() => undefined)]);
      if (again === undefined) break;
      if (again.status === 409 && tries < 60) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.data, 'recorded now: the claim was completed, not taken for a repeat').toMatchObject({
        recorded: true,
        duplicate: false,
      });
      break;
    }
    await frozen;
    expect(await killTree(stack.child)).toBeGreaterThanOrEqual(2);
    stack = undefined;
    expect(JSON.parse(readFileSync(deliveryMarker, 'utf8'))).toMatchObject({
      sequence: 'bank_delivery',
      lastWrite: 'WebhookRequest',
    });
    // The receiver took it; nothing of ours says so yet.
    expect((await acceptedBy(hooks, hook)).map((r) => r.headers['webhook-id'])).toEqual([
      `msg_${notificationId}_${account.id}`,
    ]);

    // The third start, not armed: it sends the Pending delivery again.
    stack = await startStackProcess({ dataDir, adminPassword: PASSWORD, env });
    client = api(stack.url);
    token = await login(stack.url, 'admin', PASSWORD);
    const pre = sub.available_balance;
    const balance = await push({
      bank: 1,
      type: 2,
      content: { bank: '1', account: sub.no, pre_bal: String(pre), cur_bal: String(pre + 777), amount: '777' },
    });
    expect(balance.status, JSON.stringify(balance.body)).toBe(200);
    const list = async () =>
      (await call('get', `/notifications-bank?account_id=%3D-${account.id}&page_size=0`)).body.data.result as Row[];
    const notes = await until(
      'the statement and its balance change notified and delivered',
      list,
      (l) =>
        l.some((n) => n.id === notificationId && n.category === Statement && n.business_id === statementId) &&
        l.some((n) => n.category === Balance) &&
        l.every((n) => n.notify_webhook !== NotifyStatus.values.Pending),
      { ms: 60_000, everyMs: 500 },
    );
    const statements = (
      (await call('get', `/bank/statements?account_id=%3D-${account.id}&page_size=0`)).body.data.result as Row[]
    ).filter((s) => s.notify_status !== NotifyStatus.values.NoNotify);
    expect(
      statements.map((s) => s.id),
      'the statement, once, under the id its claim named',
    ).toEqual([statementId]);
    expect(notes.filter((n) => n.category === Statement)).toHaveLength(1);
    const stats = (await call('get', `/bank/balance-stat?account_id=%3D-${account.id}&page_size=0`)).body.data
      .result as Row[];
    expect(stats, 'the balance change, once, matched by the statement').toMatchObject([
      { amount: 777, reconciled: true },
    ]);
    expect(notes.filter((n) => n.category === Balance)).toHaveLength(1);

    // Each notification accepted by the webhook once; the statement's received twice (the kill fell
    // between the receiver's 2xx and the settling), as one message: the same webhook-id.
    const requests = await receivedBy(hooks, hook);
    const accepted = await acceptedBy(hooks, hook);
    const succeeded = notes.filter((x) => x.notify_webhook === NotifyStatus.values.Success);
    expect(succeeded.map((n) => n.id).sort()).toEqual(notes.map((n) => n.id).sort());
    for (const n of succeeded) {
      const id = `msg_${n.id}_${account.id}`;
      expect(
        accepted.filter((r) => r.headers['webhook-id'] === id),
        `notification ${n.id} accepted`,
      ).toHaveLength(1);
      expect(
        requests.filter((r) => r.headers['webhook-id'] === id).map((r) => r.duplicate),
        `notification ${n.id} received`,
      ).toEqual(n.id === notificationId ? [false, true] : [false]);
    }
  }, 300_000);

  // The same kill during a poll (the sandbox bank keeps its ledger in DATA_DIR, so after the restart
  // it still shows the line the dead poll was recording): the next poll completes the cut statement.
  it('during a poll: the statement being recorded completed by the next poll, every line once, each delivery accepted once', async () => {
    const pollDir = await mkdtemp(join(tmpdir(), 'patrol-kill-poll-'));
    const pollMarker = join(pollDir, 'crashed.json');
    try {
      stack = await startStackProcess({
        dataDir: pollDir,
        adminPassword: PASSWORD,
        env: { ...env, PATROL_CRASH_AT: 'bank_statement:2', PATROL_CRASH_MARKER: pollMarker },
      });
      let client = api(stack.url);
      let token = await login(stack.url, 'admin', PASSWORD);
      const call = (method: 'get' | 'post' | 'put', path: string, body?: unknown) =>
        client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
      const hook = uniqueName('killpoll').toLowerCase();
      const user = uniqueName('kp').toLowerCase();
      const created = await call('post', '/bank/bank-accounts', { bank_name: 1, user, pwd: 'sandbox123' });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const account = created.body.data as { id: number };
      await refreshedAccount((path) => call('post', path, {}), account.id);
      // Delivering to the receiver; polled by hand (a statements refresh), not by the schedule.
      const upd = await call('put', `/bank/bank-account/${account.id}`, {
        webhook: `${receiver.url}/hooks/${hook}`,
        range: [[0, 1]],
      });
      expect(upd.status, JSON.stringify(upd.body)).toBe(200);
      const subs = (await call('get', `/bank/bank-account/${account.id}/sub`)).body.data as { no: string }[];
      // A line at the bank: the poll records it (or a line of the bank's own feed first) and freezes at
      // the aimed write, so its answer never comes.
      const added = await fetch(`${stack.env.SANDBOX_BANK_URL}/__sandbox/bank/transaction`, {
        method: 'POST',
        body: JSON.stringify({ bank: 'kbz', user, no: subs[0]?.no, amount: 555, remark: 'kill poll' }),
      });
      expect(added.status).toBe(200);
      const polling = call('post', `/bank/bank-account/${account.id}/refresh-sts`, {}).catch(() => undefined);
      await until('the aimed crash', async () => existsSync(pollMarker), Boolean, { ms: 90_000, everyMs: 50 });
      expect(await killTree(stack.child)).toBeGreaterThanOrEqual(2);
      stack = undefined;
      await polling;
      expect(JSON.parse(readFileSync(pollMarker, 'utf8'))).toMatchObject({ sequence: 'bank_statement' });

      // What the kill left: one statement claimed without its row or notification.
      const cut = cutStatements(await tableAfterCrash(pollDir), account.id);
      expect(cut, 'statements claimed before the kill, without their row or notification').toHaveLength(1);
      const { owner: statementId } = cut[0] as Row;

      // The restart, not armed: the next poll (once the dead one's lease expired) reads the same lines,
      // which the bank still shows.
      stack = await startStackProcess({ dataDir: pollDir, adminPassword: PASSWORD, env });
      client = api(stack.url);
      token = await login(stack.url, 'admin', PASSWORD);
      await until(
        'the poll after the restart',
        () => call('post', `/bank/bank-account/${account.id}/refresh-sts`, {}),
        (res) => res.status === 200 && res.body.data?.polled === true,
        { ms: 60_000, everyMs: 1000 },
      );
      const { Statement } = BankNotificationCategory.values;
      const statementsNow = async () =>
        (
          (await call('get', `/bank/statements?account_id=%3D-${account.id}&page_size=0`)).body.data.result as Row[]
        ).filter((x) => x.notify_status !== NotifyStatus.values.NoNotify);
      const notes = async () =>
        (await call('get', `/notifications-bank?account_id=%3D-${account.id}&page_size=0`)).body.data.result as Row[];
      const { statements, notes: all } = await until(
        'the cut statement and the added line recorded, every delivery settled',
        async () => ({ statements: await statementsNow(), notes: await notes() }),
        ({ statements, notes }) =>
          statements.some((x) => x.id === statementId) &&
          statements.some((x) => x.remark === 'kill poll') &&
          statements.every((x) => notes.some((n) => n.category === Statement && n.business_id === x.id)) &&
          notes.every((n) => n.notify_webhook !== NotifyStatus.values.Pending),
        { ms: 90_000, everyMs: 500 },
      );
      // Every line once (the bank's feed may add its own lines: each of those once too).
      const lines = statements.map((x) => `${x.sub_account_id}|${x.ref ?? `${x.amount}|${x.remark}|${x.human_date}`}`);
      expect(new Set(lines).size, 'no line stored twice').toBe(lines.length);
      expect(statements.filter((x) => x.remark === 'kill poll')).toHaveLength(1);
      for (const x of statements)
        expect(
          all.filter((n) => n.category === Statement && n.business_id === x.id),
          `notification of statement ${x.id}`,
        ).toHaveLength(1);
      // Each notification accepted by the webhook once.
      const accepted = await acceptedBy(receiver.url, hook);
      for (const n of all) {
        expect(n.notify_webhook, `notification ${n.id}`).toBe(NotifyStatus.values.Success);
        expect(
          accepted.filter((r) => r.headers['webhook-id'] === `msg_${n.id}_${account.id}`),
          `notification ${n.id} accepted`,
        ).toHaveLength(1);
      }
    } finally {
      if (stack) await stopStackProcess(stack.child);
      stack = undefined;
      if (!process.env.KEEP_TEST_DATA) await rm(pollDir, { recursive: true, force: true });
    }
  }, 300_000);
});
