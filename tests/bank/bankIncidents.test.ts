// Bank incidents from the poll and the dispatcher (issue 45 items 1 and 3), on the real local engine
// with a fake bank and a hand-moved clock: an account's own incident opens when a poll leaves it
// Locked or the dispatcher flags it stale, and resolves with its next healthy poll; when at least half
// of one bank's enabled accounts (and at least 2) fail within the minute, their incidents go under
// one `same_bank` parent, which resolves with its last child. A table of its own holds only this
// file's accounts, so "half of KBZ's accounts" is a number the test controls.
import { describe, expect, it } from 'vitest';
import { BankAccountStatus } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { IncidentStatus } from '../../shared/schemas/incidents.js';
import { dispatchPolls } from '../../functions/bank/dispatch.js';
import { pollAccount } from '../../functions/bank/poll.js';
import * as service from '../../functions/bank/service.js';
import { bankStore } from '../../functions/bank/store.js';
import { incidentStore, type StoredIncident } from '../../functions/incidents/store.js';
import { setupQueues } from '../data/checkRig.js';
import { setupBankTest } from './setup.js';

const at = (hms: string) => Date.parse(`2026-11-23T${hms}+06:30`);
const { bank, clock } = setupBankTest(at('09:00:00'));
setupQueues();
const deps = () => ({ store: bankStore(), clock, timeZone: async () => 'Asia/Yangon', chatOn: async () => false });
const { Open, Resolved } = IncidentStatus.values;

let users = 0;
async function kbzAccounts(n: number, interval = 30) {
  const out: { id: number; user: string }[] = [];
  for (let i = 0; i < n; i++) {
    const user = `kbz${++users}`;
    bank.open(user, 'pw-1', [{ no: `${user}-001`, balance: 100 }]);
    const account = await service.createAccount({ bank_name: 1, user, pwd: 'pw-1' });
    await service.updateAccount(account.id, { interval, range: [[0, 86_400]] });
    await pollAccount(deps(), { accountId: account.id, mode: 'init' });
    out.push({ id: account.id, user });
  }
  return out;
}
const poll = (id: number) => pollAccount(deps(), { accountId: id, mode: 'poll' });
const unlock = (user: string) => {
  (bank.logins.get(user) as { locked: boolean }).locked = false;
};

async function bankIncidents(): Promise<StoredIncident[]> {
  const page = await incidentStore().list({
    ...emptyListQuery({ page_size: 100 }),
    filters: { is_bank: { kind: 'boolean', value: true } },
  });
  return page.result;
}
const ownOf = async (accountId: number) => (await bankIncidents()).filter((i) => i.bank_account_id === accountId);
const parents = async () => (await bankIncidents()).filter((i) => i.cause === 'same_bank');

describe("one bank's accounts failing together", () => {
  it('open one incident each, and go under one parent once half of the bank fails; it resolves with its last child', async () => {
    const accounts = await kbzAccounts(4);
    const [a, b, c] = accounts;
    clock.set(at('10:00:00'));
    bank.lock(a.user);
    await poll(a.id);
    expect(await ownOf(a.id)).toMatchObject([{ kind: 'bank', status: Open, parent_id: null }]);
    // One of four: no parent.
    expect(await parents()).toEqual([]);

    clock.set(at('10:00:20'));
    bank.lock(b.user);
    await poll(b.id);
    const [parent] = await parents();
    expect(parent).toMatchObject({ kind: 'bank', bank_name: 1, status: Open, children: 2, site_name: 'KBZ' });
    for (const account of [a, b]) expect((await ownOf(account.id))[0].parent_id).toBe(parent.id);

    // Another of its accounts failing while the parent is open joins it.
    clock.set(at('10:05:00'));
    bank.lock(c.user);
    await poll(c.id);
    expect((await ownOf(c.id))[0].parent_id).toBe(parent.id);
    expect((await incidentStore().get(parent.id))?.children).toBe(3);
    expect(await parents()).toHaveLength(1);

    // Healthy again one by one: each leaves the parent, which resolves with the last.
    for (const account of [a, b, c]) unlock(account.user);
    clock.set(at('10:06:00'));
    await poll(a.id);
    await poll(b.id);
    expect((await ownOf(a.id))[0].status).toBe(Resolved);
    expect((await incidentStore().get(parent.id))?.status).toBe(Open);
    await poll(c.id);
    expect((await ownOf(c.id))[0].status).toBe(Resolved);
    expect((await incidentStore().get(parent.id))?.status).toBe(Resolved);
    // Out of the next test's bank.
    for (const account of accounts) await service.updateAccount(account.id, { status: 99 });
  });

  it('groups the stale accounts of a bank whose portal is down, from the dispatcher, and resolves them with their recovery', async () => {
    const accounts = await kbzAccounts(3, 10);
    clock.set(at('13:00:00'));
    for (const account of accounts) await poll(account.id);
    bank.down = true;
    try {
      clock.set(at('13:00:20'));
      for (const account of accounts) await poll(account.id);
      clock.set(at('13:00:31'));
      await dispatchPolls(deps());
    } finally {
      bank.down = false;
    }
    for (const account of accounts) {
      expect((await service.getAccountDetail(account.id)).stale).toBe(true);
      expect(await ownOf(account.id)).toMatchObject([{ status: Open, rule_id: null }]);
    }
    const open = (await parents()).filter((p) => p.status === Open);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ children: 3 });

    clock.set(at('13:01:00'));
    for (const account of accounts) await poll(account.id);
    for (const account of accounts) {
      expect((await service.getAccountDetail(account.id)).status).toBe(BankAccountStatus.values.Enable);
      expect((await ownOf(account.id))[0].status).toBe(Resolved);
    }
    expect((await incidentStore().get(open[0].id))?.status).toBe(Resolved);
  });
});
