import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import { api, login } from '../helpers/api.js';
import { uniqueName } from '../helpers/authKit.js';
import { type Row, tableAfterCrash } from '../helpers/crashedTable.js';
import { killTree, type RunningStack, startStackProcess, stopStackProcess } from '../helpers/stackProcess.js';
import { receivedBy, until } from '../helpers/until.js';

// Issue 25, item 4, during bank activity: the local stack's whole process tree is SIGKILLed while it
// records a statement a bank pushed to it (POST /webhook/bank), then started again on the same
// DATA_DIR, and the pusher, which got no answer, sends the same statement again. The kill is aimed:
// the stack runs with the fault hook armed (lib/db/faults.ts) to freeze its process right after the
// second write of the new statement (`bank_statement`: its key's claim, naming the statement's and its
// notification's ids, then its row; or, when the process takes a new block of ids first, the claim).
// After the restart the push finds the claim and writes what it lacks under the ids it names; a
// balance push then matches it, and each notification reaches the account's webhook once.
// (Pushes, not polls: the sandbox bank keeps its transactions in memory, so after a restart it would
// not show the cut line again, as a real bank does.)

const PASSWORD = 'kill-bank-pass-1';
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-kill-bank-'));
const marker = join(dataDir, 'crashed.json');
// The dead push's lease frees itself sooner than the default 45 s (the push sent again waits for it).
const env = { BANK_LEASE_MS: '8000' };
let stack: RunningStack | undefined;

afterAll(async () => {
  if (stack) await stopStackProcess(stack.child);
  if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
});

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
    const hooks = stack.env.SANDBOX_WEBHOOK_URL as string;
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
    await until(
      'the account inited',
      () => call('post', `/bank/bank-account/${account.id}/refresh`, {}),
      (res) => res.status !== 200 || res.body.data?.polled === true,
      { ms: 60_000, everyMs: 1000 },
    );
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

    // What the kill left: the statement's key claimed, naming the statement's and its notification's
    // ids, with the row or the notification not written (which of the two depends on whether the push
    // took a new block of ids first, one more write): the one cut is found by what it lacks.
    const rows = await tableAfterCrash(dataDir);
    const ofAccount = (type: string) =>
      rows.filter((r) => String(r.pk).startsWith(`${type}#`) && r.account_id === account.id);
    const statementRows = new Map(ofAccount('bank_statement').map((r) => [r.id, r]));
    const notified = new Set(ofAccount('bank_notification').map((n) => n.business_id));
    const cut = rows
      .filter((r) => String(r.pk).startsWith('unique#bank_statement#key#'))
      .filter((c) => {
        const row = statementRows.get(c.owner);
        return !row || (row.notify_status !== NotifyStatus.values.NoNotify && !notified.has(c.owner));
      });
    expect(cut, 'statements claimed before the kill, without their row or notification').toHaveLength(1);
    const { owner: statementId, notification: notificationId } = cut[0] as Row;

    // The restart: the same DATA_DIR, the hook not armed.
    stack = await startStackProcess({ dataDir, adminPassword: PASSWORD, env });
    client = api(stack.url);
    token = await login(stack.url, 'admin', PASSWORD);
    // The sandbox receiver came back on another port (and forgot what it got): the webhook follows it.
    const hooksNow = stack.env.SANDBOX_WEBHOOK_URL as string;
    const moved = await call('put', `/bank/bank-account/${account.id}`, { webhook: `${hooksNow}/hooks/${hook}` });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const { Statement, Balance } = BankNotificationCategory.values;
    // The pusher sends the statement again (its lease waits out the dead push's), then the balance.
    const again = await until(
      'the push sent again',
      () => push(statement),
      (res) => res.status !== 409,
      {
        ms: 60_000,
        everyMs: 1000,
      },
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data, 'recorded now: the claim was completed, not taken for a repeat').toMatchObject({
      recorded: true,
      duplicate: false,
    });
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

    // Each notification delivered to the webhook once.
    const requests = await receivedBy(hooksNow, hook);
    for (const n of notes.filter((x) => x.notify_webhook === NotifyStatus.values.Success))
      expect(
        requests.filter((r) => String(r.headers['webhook-id']).startsWith(`msg_${n.id}_`)),
        `deliveries of notification ${n.id}`,
      ).toHaveLength(1);
  }, 300_000);
});
