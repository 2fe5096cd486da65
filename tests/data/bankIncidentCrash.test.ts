import { describe, expect, it } from 'vitest';
import { parseRule } from '../../shared/alertRules/index.js';
import { BankAccountStatus } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { IncidentStatus } from '../../shared/schemas/incidents.js';
import { dispatchPolls, WINDOW_LEASE_MS } from '../../functions/bank/dispatch.js';
import { LEASE_MS, pollAccount } from '../../functions/bank/poll.js';
import * as service from '../../functions/bank/service.js';
import { bankStore } from '../../functions/bank/store.js';
import type { ActiveAlertRule } from '../../functions/bankAlertRules/rulesForAccount.js';
import { openBankIncidentId } from '../../functions/incidents/bankIncidents.js';
import { incidentStore } from '../../functions/incidents/store.js';
import { runToCrash, writeSequence } from '../../functions/lib/db/faults.js';
import { sweepFollowUps } from '../../functions/lib/db/outbox.js';
import { setupBankTest } from '../bank/setup.js';
import { setupQueues } from './checkRig.js';

// Crash points of bank incidents (issue 45): a poll that turns an account Locked (its incident
// opens), one that finds it healthy again (its incident resolves), a dispatcher tick that flags it
// stale (its incident opens with the flip), and a poll in which an alert rule starts to hold (its
// (rule, account) incident opens), each crashed right after every one of its writes in turn
// (lib/db/faults.ts, sequences `bank_poll`, `bank_dispatch`), on dynalite and, in the fidelity project,
// DynamoDB Local. Recovery is what the product does: the follow-up sweeper, then the next poll once
// the dead poll's lease has expired. Then the incident is there once (one open key, one row), its
// failure counted once with one timeline entry, a resolution entered once and its key freed, and
// nothing is left pending.

const at = (hms: string) => Date.parse(`2026-11-23T${hms}+06:30`);
const { bank, clock } = setupBankTest(at('09:00:00'));
setupQueues();

const RULE_ID = 4501;
const floorRule: ActiveAlertRule = (() => {
  const parsed = parseRule('balance < 2,000');
  if (!parsed.ok) throw new Error(parsed.message);
  return {
    id: RULE_ID,
    name: 'Floor',
    expression: 'balance < 2,000',
    rule: parsed.rule,
    severity: 'critical',
    chat_id: null,
    scope: { kind: 'all' },
  };
})();

const deps = (rules: ActiveAlertRule[] = []) => ({
  store: bankStore(),
  clock,
  timeZone: async () => 'Asia/Yangon',
  chatOn: async () => false,
  rulesFor: async () => rules,
});

let users = 0;
async function polledAccount(balance = 1000) {
  const user = `inc${++users}`;
  bank.open(user, 'pw-1', [{ no: `${user}-001`, balance }]);
  const account = await service.createAccount({ bank_name: 1, user, pwd: 'pw-1' });
  await service.updateAccount(account.id, { interval: 5, range: [[0, 86_400]] });
  await pollAccount(deps(), { accountId: account.id, mode: 'init' });
  clock.set(clock.now() + 5_000);
  await pollAccount(deps(), { accountId: account.id, mode: 'poll' });
  return { id: account.id, user };
}

const poll = (id: number, rules: ActiveAlertRule[] = []) => pollAccount(deps(rules), { accountId: id, mode: 'poll' });

async function incidentsOf(accountId: number) {
  const page = await incidentStore().list({
    ...emptyListQuery({ page_size: 100 }),
    filters: { bank_account_id: { kind: 'number', op: '=', value: accountId } },
  });
  return page.result;
}

async function recover(again: () => Promise<unknown>) {
  await sweepFollowUps({ before: Date.now() + 1 });
  clock.set(clock.now() + LEASE_MS + 1_000);
  await again();
}

async function expectNothingPending(context: string) {
  const left = await sweepFollowUps({ before: Date.now() + 1 });
  expect(left, `${context}: follow-ups still pending`).toEqual({ rows: 0, applied: 0, failed: 0 });
}

interface Scenario {
  prepare(): Promise<{ id: number; user: string }>;
  act(acc: { id: number; user: string }): Promise<unknown>;
  check(acc: { id: number; user: string }, context: string): Promise<void>;
}

/** Crashes the scenario's poll after each write in turn, recovers, and checks; answers the writes it had. */
async function crashEveryWrite(scenario: Scenario): Promise<number> {
  for (let n = 1; n < 100; n++) {
    const acc = await scenario.prepare();
    const { crashed, lastWrite } = await runToCrash({ sequence: 'bank_poll', afterWrites: n }, () => scenario.act(acc));
    const context = `crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
    await recover(() => scenario.act(acc));
    await scenario.check(acc, context);
    await expectNothingPending(context);
    // Out of the way of the next round's: a bank whose accounts fail together would group them (same bank).
    await service.updateAccount(acc.id, { status: BankAccountStatus.values.Disable as 99 });
    await expectNothingPending(`${context}, disabled`);
    if (!crashed) return n - 1;
  }
  throw new Error('the poll did not complete within 100 writes');
}

async function timelineKinds(incidentId: number) {
  return (await incidentStore().events(incidentId)).map((e) => e.kind).sort();
}

describe('bank incidents at every crash point', () => {
  it('open once when a poll finds the account Locked', async () => {
    const writes = await crashEveryWrite({
      async prepare() {
        const acc = await polledAccount();
        bank.lock(acc.user);
        return acc;
      },
      act: (acc) => poll(acc.id),
      async check(acc, context) {
        expect((await service.getAccountDetail(acc.id)).status, context).toBe(BankAccountStatus.values.Locked);
        const incidents = await incidentsOf(acc.id);
        expect(incidents, context).toHaveLength(1);
        expect(incidents[0], context).toMatchObject({ kind: 'bank', status: IncidentStatus.values.Open, failures: 1 });
        expect(await timelineKinds(incidents[0].id), context).toEqual(['failure']);
        expect(await openBankIncidentId(acc.id), context).toBe(incidents[0].id);
      },
    });
    // The poll's own writes and the incident's after them: every one of them was a crash point.
    expect(writes).toBeGreaterThanOrEqual(6);
  });

  it('resolve once when the next poll is healthy, and free the account for a new incident', async () => {
    const writes = await crashEveryWrite({
      async prepare() {
        const acc = await polledAccount();
        bank.lock(acc.user);
        clock.set(clock.now() + 5_000);
        await poll(acc.id);
        (bank.logins.get(acc.user) as { locked: boolean }).locked = false;
        return acc;
      },
      act: (acc) => poll(acc.id),
      async check(acc, context) {
        expect((await service.getAccountDetail(acc.id)).status, context).toBe(BankAccountStatus.values.Enable);
        const incidents = await incidentsOf(acc.id);
        expect(incidents, context).toHaveLength(1);
        expect(incidents[0], context).toMatchObject({ status: IncidentStatus.values.Resolved, failures: 1 });
        expect(await timelineKinds(incidents[0].id), context).toEqual(['failure', 'resolved']);
        expect(await openBankIncidentId(acc.id), context).toBeUndefined();
      },
    });
    expect(writes).toBeGreaterThanOrEqual(5);
  });

  it("open once when the dispatcher flags the account stale (the flip's follow-up)", async () => {
    // The dispatcher's writes as one sequence: its window's lease, the stale flip with the incident as
    // its follow-up, the window moved. A dispatcher that dies holds the window's lease for
    // WINDOW_LEASE_MS: the next tick after it flags what is still stale.
    const dispatch = () => writeSequence('bank_dispatch', () => dispatchPolls(deps()));
    let round = 0;
    for (let n = 1; n < 100; n++) {
      const acc = await polledAccount();
      await service.updateAccount(acc.id, { interval: 10 });
      const t0 = at('12:00:00') + ++round * 3_600_000;
      clock.set(t0);
      await poll(acc.id);
      bank.down = true;
      let outcome: { crashed: boolean; lastWrite?: string };
      try {
        clock.set(t0 + 20_000);
        await poll(acc.id);
        clock.set(t0 + 31_000);
        outcome = await runToCrash({ sequence: 'bank_dispatch', afterWrites: n }, dispatch);
        const context = `crash after write ${n}${outcome.crashed ? ` (${outcome.lastWrite})` : ' (no crash)'}`;
        await sweepFollowUps({ before: Date.now() + 1 });
        clock.set(t0 + 31_000 + WINDOW_LEASE_MS + 1_000);
        await dispatch();
        expect((await service.getAccountDetail(acc.id)).stale, context).toBe(true);
        const incidents = await incidentsOf(acc.id);
        expect(incidents, context).toHaveLength(1);
        expect(incidents[0], context).toMatchObject({ status: IncidentStatus.values.Open, failures: 1 });
        expect(await timelineKinds(incidents[0].id), context).toEqual(['failure']);
        await expectNothingPending(context);
      } finally {
        bank.down = false;
      }
      await service.updateAccount(acc.id, { status: BankAccountStatus.values.Disable as 99 });
      if (!outcome.crashed) {
        expect(n - 1).toBeGreaterThanOrEqual(3);
        return;
      }
    }
    throw new Error('the dispatch did not complete within 100 writes');
  });

  it('open a rule incident once when an alert rule starts to hold', async () => {
    const writes = await crashEveryWrite({
      prepare: () => polledAccount(1000),
      act: (acc) => poll(acc.id, [floorRule]),
      async check(acc, context) {
        const incidents = await incidentsOf(acc.id);
        expect(incidents, context).toHaveLength(1);
        expect(incidents[0], context).toMatchObject({
          rule_id: RULE_ID,
          severity: 'critical',
          status: IncidentStatus.values.Open,
          failures: 1,
        });
        expect(await timelineKinds(incidents[0].id), context).toEqual(['failure']);
        expect(await openBankIncidentId(acc.id, RULE_ID), context).toBe(incidents[0].id);
        // Held still: the next poll changes nothing.
        clock.set(clock.now() + 5_000);
        await poll(acc.id, [floorRule]);
        expect(
          (await incidentsOf(acc.id)).map((i) => i.failures),
          context,
        ).toEqual([1]);
      },
    });
    expect(writes).toBeGreaterThanOrEqual(5);
  });
});
