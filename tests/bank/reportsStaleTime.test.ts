// Reports' stale minutes (issue 46 item 1, docs/reports.md): an ended stale episode leaves its time on
// the day records of the days it spans, written once when a poll ends it.
import { describe, expect, it } from 'vitest';
import { dispatchPolls } from '../../functions/bank/dispatch.js';
import { pollAccount } from '../../functions/bank/poll.js';
import * as service from '../../functions/bank/service.js';
import { bankStore } from '../../functions/bank/store.js';
import { setupBankTest } from './setup.js';

const at = (stamp: string) => Date.parse(`${stamp}+06:30`); // Asia/Yangon, the default zone
const { bank, clock } = setupBankTest(at('2026-11-24T23:50:00'));
const timeZone = async () => 'Asia/Yangon';
const deps = () => ({ store: bankStore(), clock, timeZone, chatOn: async () => false });

async function staleMs(day: string, id: number) {
  return (await bankStore().dayFigures(day)).figures.get(id)?.stale_ms;
}

describe('stale time on the day records', () => {
  it('adds an episode across midnight to both days, once', async () => {
    bank.open('staleuser', 'pw-1', [{ no: 'staleuser-001', balance: 1000 }]);
    const { id } = await service.createAccount({ bank_name: 1, user: 'staleuser', pwd: 'pw-1' });
    await service.updateAccount(id, { interval: 10, range: [[0, 86_400]] });
    clock.set(at('2026-11-24T23:58:00'));
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    bank.down = true;
    try {
      clock.set(at('2026-11-24T23:58:20'));
      await pollAccount(deps(), { accountId: id, mode: 'poll' });
      clock.set(at('2026-11-24T23:59:00'));
      await dispatchPolls(deps());
      expect(await service.getAccountDetail(id)).toMatchObject({ stale: true, stale_since: at('2026-11-24T23:59:00') });
    } finally {
      bank.down = false;
    }
    clock.set(at('2026-11-25T00:01:30'));
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    expect((await service.getAccountDetail(id)).stale).toBe(false);
    expect(await staleMs('2026-11-24', id)).toBe(60_000);
    expect(await staleMs('2026-11-25', id)).toBe(90_000);
    // A later good poll ends nothing: the time stays as it was.
    clock.set(at('2026-11-25T00:02:00'));
    await pollAccount(deps(), { accountId: id, mode: 'poll' });
    expect(await staleMs('2026-11-25', id)).toBe(90_000);
  });
});
