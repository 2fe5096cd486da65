// What a poll costs in DynamoDB (issue 24 item 1), counted call by call on the real local engine
// with each call's consumed capacity: a poll that finds no balance moved makes at most 4 calls,
// reads at most 1 unit and writes at most 2; a stored statement with its notification writes at
// most 8, its deliveries sent on a real queue (their sending, the notifier's work, excluded).
// Issue 25 made the statement path crash-safe: the notification's deliveries are a follow-up
// recorded in the statement key's claim (a small item, so the claim with it and its clear are a
// unit each, and the ~1 KB notification is written plain), and a balance change is one conditional
// write of the sub-account recording its stat and notification as follow-ups (the row with them,
// then their clear). The kept counts of the bank's rows share items (entities.ts counterGroup): a
// poll's statements, notifications and balance stats move the day's, the sub-account's and the
// account's items once (the balance change's follow-ups, applied inline, add to the poll's batch). The idle poll is as it was. dynalite reports the table's units; the poll
// record and the reading records are in no index, so the idle poll's figure is the cloud's too.
// Issue 45: with an alert rule on the account, the idle poll keeps that bound (the rules come from
// the poller's cache; a rule whose state does not change writes nothing).

import { describe, expect, it } from 'vitest';
import { pollPhase } from '../../functions/bank/monitorSchedule.js';
import { pollAccount } from '../../functions/bank/poll.js';
import { runDuePoll } from '../../functions/bank/pollDue.js';
import { emptyReading, finishRecording, recordScope, recordStatement } from '../../functions/bank/record.js';
import * as service from '../../functions/bank/service.js';
import { statementKey } from '../../functions/bank/statementKey.js';
import { bankStore } from '../../functions/bank/store.js';
import { createRulesAccessor, inScope, type RuleAccount } from '../../functions/bankAlertRules/rulesForAccount.js';
import { alertRuleStore } from '../../functions/bankAlertRules/store.js';
import { isReadCommand } from '../../bench/readCommand.js';
import { setupQueues } from '../data/checkRig.js';
import { callsDuring } from '../data/engine.js';
import { setupBankTest } from './setup.js';

const at = (hms: string) => Date.parse(`2026-11-23T${hms}+06:30`);
/** The account's poll instant in the second after `hms` that its phase (inside its 5 s interval) names. */
const dueAt = (id: number, hms: string) => at(hms) + pollPhase({ id, monitor_interval: 5 }) * 1000;
const { bank, clock } = setupBankTest(at('09:00:00'));
// A real notify queue: a notification's deliveries are sent and their follow-up cleared, as in the stack.
setupQueues();
const timeZone = async () => 'Asia/Yangon';
const deps = () => ({ store: bankStore(), clock, timeZone, chatOn: async () => false });

interface Cost {
  calls: number;
  rcu: number;
  wcu: number;
  commands: string[];
}

/** The DynamoDB calls and units of `work`, one by one. */
async function cost(work: () => Promise<unknown>): Promise<Cost> {
  const { calls } = await callsDuring(work, { units: true });
  const units = (reads: boolean) =>
    calls.filter((c) => isReadCommand(c.command) === reads).reduce((sum, c) => sum + (c.units ?? 0), 0);
  return {
    calls: calls.length,
    rcu: units(true),
    wcu: units(false),
    commands: calls.map((c) => `${c.command} ${c.pk ?? ''} ${c.units}`),
  };
}

let users = 0;
async function polledAccount() {
  const user = `cost${++users}`;
  bank.open(user, 'pw-1', [
    { no: `${user}-001`, balance: 1000 },
    { no: `${user}-002`, balance: 50 },
  ]);
  const account = await service.createAccount({ bank_name: 1, user, pwd: 'pw-1' });
  await service.updateAccount(account.id, { interval: 5, range: [[0, 86_400]] });
  await pollAccount(deps(), { accountId: account.id, mode: 'init' });
  // One scheduled poll after the init: the session is kept and the day's figures are on the record.
  clock.set(clock.now() + 5000);
  await pollAccount(deps(), { accountId: account.id, mode: 'poll' });
  return { id: account.id, user };
}

describe('what a poll costs', () => {
  it('finds no balance moved in at most 4 calls, 1 read unit and 2 write units', async () => {
    const { id } = await polledAccount();
    clock.set(dueAt(id, '09:10:00'));
    const spent = await cost(() => runDuePoll(deps(), { account_id: id, due: dueAt(id, '09:10:00') }));
    expect(spent.calls, spent.commands.join(', ')).toBeLessThanOrEqual(4);
    expect(spent.rcu).toBeLessThanOrEqual(1);
    expect(spent.wcu).toBeLessThanOrEqual(2);
    // And it was a poll: the account shows it.
    expect((await service.getAccountDetail(id)).last_refresh).toBe(dueAt(id, '09:10:00'));
  });

  // Issue 45: the alert rules are evaluated in the poll on the figures it holds, read through a
  // short cache; an idle poll whose rules do not change their state writes and reads nothing more.
  it('stays within the idle bound with an alert rule on the account (the rules from their cache)', async () => {
    const { id } = await polledAccount();
    await alertRuleStore().create({
      name: `floor ${id}`,
      expression: 'balance < 1 or no_statement_for > 30d',
      scope: { kind: 'accounts', account_ids: [id] },
      severity: 'warning',
      chat_id: null,
      enabled: true,
      editor_id: null,
    });
    // The poller's cache of the rules (rulesForAccount's), its clock held so that a slow machine
    // cannot expire it between the warm read and the measured poll.
    const rules = createRulesAccessor(alertRuleStore, { now: () => 0 });
    const rulesFor = async (a: RuleAccount) => (await rules.get()).filter((r) => inScope(r.scope, a));
    const account = await bankStore().getAccount(id);
    if (!account) throw new Error('no account');
    expect((await rulesFor(account)).map((r) => r.name)).toEqual([`floor ${id}`]);
    clock.set(dueAt(id, '09:30:00'));
    const withRules = { ...deps(), rulesFor };
    const spent = await cost(() => runDuePoll(withRules, { account_id: id, due: dueAt(id, '09:30:00') }));
    expect(spent.calls, spent.commands.join(', ')).toBeLessThanOrEqual(4);
    expect(spent.rcu).toBeLessThanOrEqual(1);
    expect(spent.wcu).toBeLessThanOrEqual(2);
    expect((await service.getAccountDetail(id)).last_refresh).toBe(dueAt(id, '09:30:00'));
  });

  it('stores a statement with its notification and deliveries in at most 8 write units (its ids from blocks taken before)', async () => {
    const { id, user } = await polledAccount();
    const account = (await bankStore().getAccount(id)) as NonNullable<
      Awaited<ReturnType<ReturnType<typeof bankStore>['getAccount']>>
    >;
    const sub = (await bankStore().subsOf(id)).find((s) => s.no === `${user}-001`);
    if (!sub) throw new Error('no sub-account');
    const line = {
      no: sub.no,
      ref: `TX-${user}`,
      inflow: true,
      name: 'U Ba',
      remark: 'Order 1',
      amount: 25,
      date: '2026-11-23',
      time: '',
    };
    const rec = { id: sub.id, no: sub.no, available_balance: sub.available_balance, reading: emptyReading() };
    const scope = recordScope(bankStore(), account, { webhook: 0, tg: -1, row: 0 }, clock.now(), 'Asia/Yangon');
    // Ids come a hundred at a time per process (one write per block): this statement's are in blocks
    // an earlier one took, as 99 in 100 statements' are.
    const earlier = { ...line, ref: `TX-${user}-0` };
    await recordStatement(scope, rec, earlier, statementKey(1, earlier));
    await finishRecording(scope);
    const spent = await cost(async () => {
      expect(await recordStatement(scope, rec, line, statementKey(1, line))).toBe('stored');
      await finishRecording(scope);
    });
    expect(spent.wcu, spent.commands.join(', ')).toBeLessThanOrEqual(8);
    expect(spent.rcu).toBe(0);
    // Seen again by a later read: no write at all.
    const again = await cost(() => recordStatement(scope, rec, line, statementKey(1, line)));
    expect(again).toMatchObject({ calls: 0, wcu: 0 });
  });

  it('records a transaction (its statement and its balance change) in one poll, every write counted', async () => {
    const { id, user } = await polledAccount();
    bank.transact(user, `${user}-001`, 40);
    clock.set(dueAt(id, '09:20:00'));
    const spent = await cost(() => runDuePoll(deps(), { account_id: id, due: dueAt(id, '09:20:00') }));
    // Idle poll (2) + statement with notification (6: no channel to push here) + the balance change:
    // the sub-account's row with its follow-ups (2) and their clear (2), the balance stat and its
    // notification (2, their counts moved with the statement's: the poll lends its batch) + the
    // reading (1) + an id block now and then (1); reads of the rows and readings.
    expect(spent.wcu, spent.commands.join(', ')).toBeLessThanOrEqual(16);
    const stats = await service.listBalanceStats({
      page: 1,
      page_size: 10,
      sort: [],
      keywordField: [],
      filters: { account_id: { kind: 'number', op: '=', value: id } },
    });
    expect(stats.result).toMatchObject([{ amount: 40, reconciled: true }]);
  });
});
