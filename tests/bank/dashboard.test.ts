// The bank and delivery dashboards' figures (issue 26 items 4, 5) against the real local engine, a
// fake bank and a clock the test moves: after a mix of polls, transactions, a missed statement and
// deliveries, across a day boundary, the figures equal a count over the rows; the repair counts the
// same figures again from the rows.

import { describe, expect, it } from 'vitest';
import { bankDashboard, deliveryDashboard } from '../../functions/bank/dashboard.js';
import { dispatchPolls } from '../../functions/bank/dispatch.js';
import { pollPhase } from '../../functions/bank/monitorSchedule.js';
import { pollAccount } from '../../functions/bank/poll.js';
import { runDuePoll } from '../../functions/bank/pollDue.js';
import { rebuildBankRollups } from '../../functions/bank/rollupRepair.js';
import * as service from '../../functions/bank/service.js';
import { bankStore } from '../../functions/bank/store.js';
import { deliverBankNotification } from '../../functions/bankWebhook/deliver.js';
import { NotifyStatus } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { setupBankTest } from './setup.js';
import type { PausedNotice } from '../../functions/bankWebhook/pause.js';
import { newNotificationId, writeNotification } from '../../functions/notifications/service.js';

const at = (day: string, hms: string) => Date.parse(`2026-11-${day}T${hms}+06:30`);
const { bank, clock } = setupBankTest(at('23', '20:00:00'));
const timeZone = async () => 'Asia/Yangon';
let chat = false;
const deps = () => ({ store: bankStore(), clock, timeZone, chatOn: async () => chat });
const all = emptyListQuery({ page_size: 0 });

describe('the bank dashboard', () => {
  it('answers empty figures before any poll', async () => {
    const { reply } = await bankDashboard(deps(), 24);
    expect(reply).toMatchObject({
      stale: [],
      unreconciled: { count: 0, latest: null },
      poll_lag_p95_ms: null,
      polls: 0,
      statements: { total: 0, per_hour: [] },
      last_statement_at: [],
    });
    expect((await deliveryDashboard(deps(), 24)).reply).toMatchObject({
      webhook: { sent: 0, failed: 0, success_rate: null, paused_endpoints: [] },
      telegram: { sent: 0, failed: 0 },
    });
  });

  it('counts what the rows say across two days, and the repair counts the same again', async () => {
    bank.open('dash', 'pw-1', [{ no: 'dash-001', balance: 500 }]);
    const { id } = await service.createAccount({ bank_name: 1, user: 'dash', pwd: 'pw-1' });
    await service.updateAccount(id, { interval: 5, range: [[0, 86_400]] });
    await pollAccount(deps(), { accountId: id, mode: 'init' });

    // Day one (the 23rd, Yangon): two transactions, a statement the bank drops, scheduled polls with known lags.
    const due = (day: string, hms: string) => at(day, hms) + pollPhase({ id, monitor_interval: 5 }) * 1000;
    bank.transact('dash', 'dash-001', 100);
    clock.set(due('23', '20:00:05') + 300);
    await runDuePoll(deps(), { account_id: id, due: due('23', '20:00:05') });
    bank.transact('dash', 'dash-001', 20, false);
    bank.drop('dash', 'dash-001', 7);
    clock.set(due('23', '23:59:55') + 40);
    await runDuePoll(deps(), { account_id: id, due: due('23', '23:59:55') });
    // Day two: one more transaction; the first poll of the day moves day one to its rollup record.
    bank.transact('dash', 'dash-001', 30);
    clock.set(due('24', '00:00:05') + 1200);
    await runDuePoll(deps(), { account_id: id, due: due('24', '00:00:05') });
    clock.set(at('24', '01:00:00'));

    const stored = (await bankStore().listStatements(all)).result.filter(
      (s) => s.account_id === id && s.notify_status !== NotifyStatus.values.NoNotify,
    );
    const stats = (await bankStore().listBalanceStats(all)).result.filter((s) => s.account_id === id);
    expect(stored).toHaveLength(3);
    expect(stats.filter((s) => !s.reconciled)).toHaveLength(1);

    const { reply, rcu } = await bankDashboard(deps(), 24);
    expect(reply.days).toEqual(['2026-11-23', '2026-11-24']);
    expect(reply.polls).toBe(3 + 1); // three scheduled polls and the init, all counted on their days
    expect(reply.statements.total).toBe(stored.length);
    expect(reply.statements.per_hour).toEqual([
      { day: '2026-11-23', hour: 20, count: 1 },
      { day: '2026-11-23', hour: 23, count: 1 },
      { day: '2026-11-24', hour: 0, count: 1 },
    ]);
    expect(reply.unreconciled.count).toBe(1);
    expect(reply.unreconciled.latest).toMatchObject({ account_id: id, reconciled: false, difference: 7 });
    // Lags of 300, 40 and 1200 ms: the p95 is the largest, within the sketch's 10 %.
    expect(reply.poll_lag_p95_ms).toBeGreaterThan(1080);
    expect(reply.poll_lag_p95_ms).toBeLessThan(1320);
    expect(reply.last_statement_at).toEqual([{ account_id: id, at: due('24', '00:00:05') + 1200 }]);
    expect(rcu).toBeGreaterThan(0);
    // A window of one hour counts only the current day's hour 0 statements.
    expect((await bankDashboard(deps(), 1)).reply.statements.total).toBe(1);

    // The rollup records lose their row figures; the repair counts them again from the rows.
    await bankStore().setDayFigures('2026-11-23', id, { statements: 0, balances: 0, unreconciled: 0, h20: 0, h23: 0 });
    expect((await bankDashboard(deps(), 24)).reply.statements.total).toBe(1);
    await rebuildBankRollups(deps());
    const repaired = (await bankDashboard(deps(), 24)).reply;
    expect(repaired.statements).toEqual(reply.statements);
    expect(repaired.unreconciled.count).toBe(reply.unreconciled.count);
    expect(repaired.polls).toBe(reply.polls);
  });

  it("counts deliveries' final outcomes, not their retries", async () => {
    chat = true;
    bank.open('dash2', 'pw-1', [{ no: 'dash2-001', balance: 10 }]);
    const { id } = await service.createAccount({ bank_name: 1, user: 'dash2', pwd: 'pw-1' });
    await service.updateAccount(id, { interval: 5, range: [[0, 86_400]] });
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    bank.transact('dash2', 'dash2-001', 5);
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    chat = false;
    const notes = (await bankStore().listNotifications(all)).result.filter((n) => n.account_id === id);
    expect(notes).toHaveLength(2);
    const before = (await deliveryDashboard(deps(), 24)).reply.telegram;
    const outcomes = [
      { status: NotifyStatus.values.Failed, retryable: true },
      { status: NotifyStatus.values.Success, retryable: false },
      { status: NotifyStatus.values.Failed, retryable: false },
    ];
    const delivery = (attempt: number) => ({
      store: bankStore(),
      timeZone,
      now: () => clock.now(),
      notice: { newId: newNotificationId, write: (id: number, n: PausedNotice) => writeNotification({ id, ...n }) },
      sendTelegram: async () => ({
        ...(outcomes[attempt - 1] ?? outcomes[0]),
        reason: null,
        pushed_at: clock.now(),
        answer: null,
        lines: 3,
      }),
    });
    const [first, second] = notes as [(typeof notes)[0], (typeof notes)[0]];
    // The first: a retry, then Success. The second: Failed for good.
    await deliverBankNotification(
      { kind: 'bank_notification', notification_id: first.id, channel: 2, attempt: 1 },
      delivery(1),
    );
    await deliverBankNotification(
      { kind: 'bank_notification', notification_id: first.id, channel: 2, attempt: 2 },
      delivery(2),
    );
    await deliverBankNotification(
      { kind: 'bank_notification', notification_id: second.id, channel: 2, attempt: 3 },
      delivery(3),
    );
    const after = (await deliveryDashboard(deps(), 24)).reply.telegram;
    expect({ sent: after.sent - before.sent, failed: after.failed - before.failed }).toEqual({ sent: 1, failed: 1 });
  });

  it("sums every account's day figures, not one account's", async () => {
    const day = '2026-11-24';
    const ids = [];
    for (const user of ['dash4', 'dash5', 'dash6'])
      ids.push((await service.createAccount({ bank_name: 1, user, pwd: 'pw-1' })).id);
    const before = (await deliveryDashboard(deps(), 24)).reply;
    // What three accounts' deliveries add to the day's rollup records (the delivery's own store call).
    for (const [i, id] of ids.entries())
      await bankStore().addDayFigures(day, id, { wh_sent: 10 * (i + 1), wh_failed: i, tg_sent: 5, tg_failed: 1 });
    const after = (await deliveryDashboard(deps(), 24)).reply;
    expect({
      wh_sent: after.webhook.sent - before.webhook.sent,
      wh_failed: after.webhook.failed - before.webhook.failed,
      tg_sent: after.telegram.sent - before.telegram.sent,
      tg_failed: after.telegram.failed - before.telegram.failed,
    }).toEqual({ wh_sent: 60, wh_failed: 3, tg_sent: 15, tg_failed: 3 });
  });

  it('names the stale accounts and counts the accounts by status', async () => {
    bank.open('dash3', 'pw-1', [{ no: 'dash3-001', balance: 10 }]);
    const { id } = await service.createAccount({ bank_name: 1, user: 'dash3', pwd: 'pw-1' });
    await service.updateAccount(id, { interval: 5, range: [[0, 86_400]] });
    const start = clock.now();
    await pollAccount(deps(), { accountId: id, mode: 'init' });
    bank.down = true;
    try {
      clock.set(start + 30_000);
      await pollAccount(deps(), { accountId: id, mode: 'poll' });
      await dispatchPolls(deps());
    } finally {
      bank.down = false;
    }
    const { reply } = await bankDashboard(deps(), 24);
    expect(reply.stale).toContain(id);
    const enabled = (await service.listAccounts({ ...all, filters: { status: { kind: 'enum', values: [1] } } }))
      .total_count;
    expect(reply.accounts_by_status.find((s) => s.status === 1)?.count).toBe(enabled);
  });
});
