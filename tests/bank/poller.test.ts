// The bank monitor's polling rules (issue 13 items 4, 5) on the real local table, a fake bank
// behind the driver port and a clock the test moves: the dispatcher's minute ticks, the queue's
// delays and the poller's lease, as a caller of the bank API would notice them.

import { describe, expect, it } from 'vitest';
import { dispatchPolls } from '../../functions/bank/dispatch.js';
import { LEASE_MS, pollAccount } from '../../functions/bank/poll.js';
import { pollPhase } from '../../functions/bank/monitorSchedule.js';
import { runDuePoll } from '../../functions/bank/pollDue.js';
import { delayFor, type PollMessage } from '../../functions/bank/pollMessage.js';
import * as service from '../../functions/bank/service.js';
import { bankStore } from '../../functions/bank/store.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { setupBankTest } from './setup.js';

const at = (hms: string) => Date.parse(`2026-11-23T${hms}+06:30`); // Asia/Yangon, the default zone
const { bank, clock, sent } = setupBankTest(at('09:58:30'));
const timeZone = async () => 'Asia/Yangon';
const deps = () => ({ store: bankStore(), clock, timeZone, chatOn: async () => false });
const sod = (hms: string) => {
  const [h, m, s] = hms.split(':').map(Number);
  return (h as number) * 3600 + (m as number) * 60 + (s as number);
};

let users = 0;
async function newAccount(opts: { interval?: number; range?: [number, number][]; webhook?: string } = {}) {
  const user = `user${++users}`;
  bank.open(user, 'pw-1', [
    { no: `${user}-001`, balance: 1000 },
    { no: `${user}-002`, balance: 50 },
  ]);
  const account = await service.createAccount({ bank_name: 1, user, pwd: 'pw-1' });
  await service.updateAccount(account.id, {
    interval: opts.interval ?? 5,
    range: opts.range ?? [[0, 86_400]],
    ...(opts.webhook ? { webhook: opts.webhook } : {}),
  });
  return { id: account.id, user };
}

/** Ticks the dispatcher every minute from `from` to `to` and returns the polls of `accountId` it sent. */
async function tickMinutes(from: number, to: number, accountId: number) {
  sent.length = 0;
  for (let t = from; t < to; t += 60_000) {
    clock.set(t);
    await dispatchPolls(deps());
  }
  return sent.flatMap(({ polls, now }) =>
    polls
      .filter((p) => p.account_id === accountId)
      .map((p) => ({ ...p, deliveredAt: now + delayFor(p.due, now) * 1000 })),
  );
}

/** Delivers polls in order at their delivery time, as the queue would; returns when each poll started. */
async function deliver(polls: (PollMessage & { deliveredAt: number })[], before?: (p: PollMessage) => Promise<void>) {
  const started: number[] = [];
  for (const p of [...polls].sort((a, b) => a.deliveredAt - b.deliveredAt)) {
    await before?.(p);
    // The queue hands each message out at its delivery time, whatever the clock said at the last tick.
    clock.set(p.deliveredAt);
    const outcome = await runDuePoll({ ...deps(), onLag: () => started.push(clock.now()) }, p);
    if (outcome && !outcome.polled) started.pop();
  }
  return started;
}

const listAll = emptyListQuery({ page_size: 0 });

describe('scheduled polls', () => {
  it('polls an account at 5 s in 10:00:00-10:01:00 12 times (within one), on their seconds, and never outside', async () => {
    const { id } = await newAccount({ interval: 5, range: [[sod('10:00:00'), sod('10:01:00')]] });
    const polls = await tickMinutes(at('09:58:30'), at('10:03:30'), id);
    const started = await deliver(polls);

    expect(started.length).toBeGreaterThanOrEqual(11);
    expect(started.length).toBeLessThanOrEqual(13);
    for (const t of started) {
      expect(t).toBeGreaterThanOrEqual(at('10:00:00'));
      expect(t).toBeLessThan(at('10:01:00'));
    }
    // On their seconds: each poll starts at its due time (its phase inside the 5 s), not up to a second later.
    const phase = pollPhase({ id, monitor_interval: 5 }) * 1000;
    expect(started.map((t) => (t - phase) % 5000)).toEqual(started.map(() => 0));
    const account = await service.getAccountDetail(id);
    expect(account.last_refresh).toBeGreaterThanOrEqual(at('10:00:55'));
    expect(account.processing).toBe(false);
  });

  it('stops polling within one interval of a disable, and starts again on enable with no other step', async () => {
    const { id } = await newAccount({ interval: 5 });
    const polls = await tickMinutes(at('11:00:00'), at('11:01:00'), id);
    let disabledAt = 0;
    let enabledAt = 0;
    const started = await deliver(polls, async (p) => {
      if (!disabledAt && p.due >= at('11:00:20')) {
        clock.set(at('11:00:17'));
        disabledAt = clock.now();
        await service.updateAccount(id, { status: 99 });
      }
    });
    expect(started.filter((t) => t <= disabledAt).length).toBeGreaterThan(2);
    expect(started.filter((t) => t > disabledAt)).toEqual([]);

    sent.length = 0;
    clock.set(at('11:00:40'));
    enabledAt = clock.now();
    await service.updateAccount(id, { status: 1 });
    // The account's polls for the rest of the dispatched window were sent at once.
    const resumed = sent.flatMap(({ polls: ps, now }) =>
      ps.map((p) => ({ ...p, deliveredAt: now + delayFor(p.due, now) * 1000 })),
    );
    const again = await deliver(resumed);
    expect(again.length).toBeGreaterThan(0);
    expect(Math.min(...again) - enabledAt).toBeLessThanOrEqual(5000);
  });

  it('never lets two pollers poll one account at once', async () => {
    const { id } = await newAccount();
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    bank.latencyMs = 30;
    bank.maxConcurrent = 0;
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => pollAccount(deps(), { accountId: id, mode: 'poll' })),
      );
      expect(bank.maxConcurrent).toBe(1);
      expect(outcomes.filter((o) => o.polled).length).toBeGreaterThanOrEqual(1);
      expect(outcomes.filter((o) => !o.polled).every((o) => o.error === 'A poll is running')).toBe(true);
    } finally {
      bank.latencyMs = 0;
    }
    expect((await service.getAccountDetail(id)).processing).toBe(false);
  });

  it('leaves no lease past its expiry when a poller dies mid-poll', async () => {
    const { id } = await newAccount();
    clock.set(at('12:00:00'));
    // A poller took the lease and died: nothing will release it.
    expect((await bankStore().takePollLease(id, 'dead-poller', clock.now(), LEASE_MS)).taken).toBe(true);
    expect((await service.getAccountDetail(id)).processing).toBe(true);

    clock.set(at('12:00:10'));
    expect((await pollAccount(deps(), { accountId: id, mode: 'poll' })).polled).toBe(false);

    // Past the expiry the next minute tick frees it, and the next poll runs.
    clock.set(at('12:00:00') + LEASE_MS + 1000);
    await dispatchPolls(deps());
    expect((await service.getAccountDetail(id)).processing).toBe(false);
    expect((await pollAccount(deps(), { accountId: id, mode: 'poll' })).polled).toBe(true);

    // Or a poller finding an expired lease takes it over itself.
    await bankStore().takePollLease(id, 'dead-again', clock.now(), LEASE_MS);
    clock.set(clock.now() + LEASE_MS + 1);
    expect((await pollAccount(deps(), { accountId: id, mode: 'poll' })).polled).toBe(true);
    expect((await service.getAccountDetail(id)).processing).toBe(false);
  });
});

describe('statements and balances', () => {
  it('stores a statement seen by three polls once, with one notification', async () => {
    const { id, user } = await newAccount({ webhook: 'https://hooks.example.com/bank' });
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    bank.transact(user, `${user}-001`, 250);
    for (let i = 0; i < 3; i++) await pollAccount(deps(), { accountId: id, mode: 'statements' });
    await pollAccount(deps(), { accountId: id, mode: 'poll' });

    const sub = (await service.accountSubs(id)).find((s) => s.no === `${user}-001`);
    const statements = await service.listStatements({
      ...listAll,
      filters: { sub_account_id: { kind: 'number', op: '=', value: sub?.id as number } },
    });
    expect(statements.result).toHaveLength(1);
    expect(statements.result[0]).toMatchObject({
      amount: 250,
      inflow: true,
      notify_status: 0,
      sub_account: { no: `${user}-001` },
    });
    const notes = await bankStore().listNotifications({
      ...listAll,
      filters: { account_id: { kind: 'number', op: '=', value: id } },
    });
    expect(notes.result.filter((n) => n.category === 1)).toHaveLength(1);
    // The webhook is to be pushed (push Pending, notify Pending); there is no bank chat (NoNeed, No Need).
    expect(notes.result.find((n) => n.category === 1)).toMatchObject({
      status_webhook: 1,
      notify_webhook: 0,
      pushed_webhook_at: null,
      status_tg: 0,
      notify_tg: -1,
      notify_status: 0,
    });
    expect(sub?.available_balance).toBe(1250);
  });

  it('records a reconciled balance stat for a balance that moved with its statements', async () => {
    const { id, user } = await newAccount();
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    bank.transact(user, `${user}-001`, 100);
    bank.transact(user, `${user}-001`, 30, false);
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    const stats = await service.listBalanceStats({
      ...listAll,
      filters: { account_id: { kind: 'number', op: '=', value: id } },
    });
    expect(stats.result).toHaveLength(1);
    expect(stats.result[0]).toMatchObject({
      pre_bal: 1000,
      cur_bal: 1070,
      amount: 70,
      reconciled: true,
      difference: 0,
    });
    // No webhook and the chat channel off: nothing to deliver, and nothing to push on either channel.
    expect(stats.result[0]?.notify_status).toBe(-1);
    const notes = await bankStore().listNotifications({
      ...listAll,
      filters: { account_id: { kind: 'number', op: '=', value: id } },
    });
    // The balance's notification and the two statements' alike.
    expect(notes.result.map((n) => n.category).sort()).toEqual([1, 1, 2]);
    for (const n of notes.result)
      expect(n).toMatchObject({
        status_webhook: 0,
        notify_webhook: -1,
        status_tg: 0,
        notify_tg: -1,
        notify_status: -1,
        pushed_webhook_at: null,
        pushed_tg_at: null,
      });
  });

  it('gives a dropped statement an unreconciled balance stat and one notification', async () => {
    const { id, user } = await newAccount();
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    bank.drop(user, `${user}-002`, 40);
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    await pollAccount(deps(), { accountId: id, mode: 'poll' });

    const stats = await service.listBalanceStats({
      ...listAll,
      filters: { account_id: { kind: 'number', op: '=', value: id } },
    });
    expect(stats.result).toHaveLength(1);
    expect(stats.result[0]).toMatchObject({ pre_bal: 50, cur_bal: 90, amount: 40, reconciled: false, difference: 40 });
    const unreconciled = await service.listBalanceStats({
      ...listAll,
      filters: { reconciled: { kind: 'boolean', value: false }, account_id: { kind: 'number', op: '=', value: id } },
    });
    expect(unreconciled.result).toHaveLength(1);
    const notes = await bankStore().listNotifications({
      ...listAll,
      filters: { account_id: { kind: 'number', op: '=', value: id } },
    });
    expect(notes.result).toHaveLength(1);
    expect(notes.result[0]).toMatchObject({ category: 2, business_id: stats.result[0]?.id });
    expect(notes.result[0]?.context).toMatchObject({ kind: 'balance', reconciled: false, difference: '40.00' });
  });
});

describe('driver failures and sessions', () => {
  it('maps wrong credentials to 2, locked to 3 and unreadable data to 9, and a success back to 1', async () => {
    const { id, user } = await newAccount();
    bank.setPassword(user, 'changed');
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    expect((await service.getAccountDetail(id)).status).toBe(2);

    bank.setPassword(user, 'pw-1');
    bank.lock(user);
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    const locked = await service.getAccountDetail(id);
    expect(locked.status).toBe(3);
    expect(locked.last_error).toContain('locked');

    (bank.logins.get(user) as { locked: boolean }).locked = false;
    bank.malformed = true;
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    bank.malformed = false;
    expect((await service.getAccountDetail(id)).status).toBe(9);

    await pollAccount(deps(), { accountId: id, mode: 'init' });
    const ok = await service.getAccountDetail(id);
    expect(ok).toMatchObject({ status: 1, last_error: null });
    expect(ok.subs).toHaveLength(2);
  });

  it('marks a sub-account the bank reports unusable 2 Unavailable', async () => {
    const { id, user } = await newAccount();
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    bank.makeUnusable(user, `${user}-002`);
    await pollAccount(deps(), { accountId: id, mode: 'statements' });
    const subs = await service.accountSubs(id);
    expect(subs.find((s) => s.no === `${user}-002`)?.status).toBe(2);
    expect(subs.find((s) => s.no === `${user}-001`)?.status).toBe(1);
  });

  it('reuses the portal session between polls', async () => {
    const { id } = await newAccount();
    const before = bank.loginCount;
    for (let i = 0; i < 4; i++) await pollAccount(deps(), { accountId: id, mode: 'poll' });
    expect(bank.loginCount - before).toBe(1);
  });
});

describe('staleness', () => {
  it('marks an account stale after 3 intervals without a successful poll, once, and notifies its recovery', async () => {
    const { id } = await newAccount({ interval: 10 });
    clock.set(at('13:00:00'));
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    bank.down = true;
    try {
      clock.set(at('13:00:20'));
      await pollAccount(deps(), { accountId: id, mode: 'poll' });
      await dispatchPolls(deps());
      expect((await service.getAccountDetail(id)).stale).toBe(false);
      clock.set(at('13:00:31'));
      await dispatchPolls(deps());
      clock.set(at('13:01:31'));
      await dispatchPolls(deps());
      const stale = await service.getAccountDetail(id);
      expect(stale).toMatchObject({ stale: true, stale_since: at('13:00:31') });
      const staleList = await service.listAccounts({
        ...listAll,
        filters: { stale: { kind: 'boolean', value: true } },
      });
      expect(staleList.result.map((a) => a.id)).toContain(id);
    } finally {
      bank.down = false;
    }
    clock.set(at('13:02:00'));
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    expect((await service.getAccountDetail(id)).stale).toBe(false);
    const notes = await bankStore().listNotifications({
      ...listAll,
      filters: { account_id: { kind: 'number', op: '=', value: id }, category: { kind: 'enum', values: [3] } },
    });
    expect(notes.result.map((n) => n.context.kind).sort()).toEqual(['recovered', 'stale']);
  });

  it('does not flag an account whose polls have not run since its last success: the monitor is behind, not the bank', async () => {
    const { id } = await newAccount({ interval: 10 });
    clock.set(at('14:00:00'));
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    // Five intervals with no poll at all (its messages wait in a backlog): no flag, no notice.
    clock.set(at('14:00:50'));
    await dispatchPolls(deps());
    expect((await service.getAccountDetail(id)).stale).toBe(false);
    // The next poll runs and fails: now its polls ran and failed for more than 3 intervals.
    bank.down = true;
    try {
      clock.set(at('14:00:55'));
      await pollAccount(deps(), { accountId: id, mode: 'poll' });
      await dispatchPolls(deps());
      expect(await service.getAccountDetail(id)).toMatchObject({ stale: true, stale_since: at('14:00:55') });
    } finally {
      bank.down = false;
    }
    const notes = await bankStore().listNotifications({
      ...listAll,
      filters: { account_id: { kind: 'number', op: '=', value: id }, category: { kind: 'enum', values: [3] } },
    });
    expect(notes.result.map((n) => n.context.kind)).toEqual(['stale']);
  });
});
