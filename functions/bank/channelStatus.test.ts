import { afterEach, describe, expect, it } from 'vitest';
import { NotifyStatus, PushStatus } from '../../shared/enums.js';
import { ConditionFailedError, type FollowUp } from '../lib/db/entity.js';
import { applyNow } from '../lib/db/outbox.js';
import { newChannelFields, pushStatusOf, settleChannel } from './channelStatus.js';
import { type BankStore, type StoredBankNotification, useBankStore as installBankStore } from './store.js';

const N = NotifyStatus.values;
const P = PushStatus.values;

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

function notification(over: Partial<StoredBankNotification> = {}): StoredBankNotification {
  return {
    id: 7,
    business_id: 70,
    account_id: 3,
    sub_account_id: 9,
    category: 1,
    context: {
      kind: 'statement',
      bank: 1,
      account: '001',
      sender: 'U Ba',
      remark: 'rent',
      send_date: '2026-01-05',
      send_time: '',
      amount: '10.00',
      inflow: true,
    },
    bank_name: 1,
    account_user: 'kbz-ops',
    sub_no: '001',
    created_at: T0,
    ...newChannelFields({ webhook: N.Pending, tg: N.Pending }),
    ...over,
  };
}

afterEach(() => installBankStore(undefined));

/**
 * The parts of the bank store settling uses, holding one notification and its statement's status;
 * the process-wide store while the test runs (the settling's follow-ups reach it), applying them at once.
 */
function memoryStore(initial: StoredBankNotification, beforeWrite?: (row: StoredBankNotification) => void) {
  let row = initial;
  const business: { notify_status?: number; notified_at?: number | null } = {};
  const store = {
    getNotification: async () => row,
    async updateNotification(
      _id: number,
      patch: Partial<StoredBankNotification>,
      expect?: Record<string, unknown>,
      _basis?: StoredBankNotification,
      followUps: FollowUp[] = [],
    ) {
      beforeWrite?.(row);
      beforeWrite = undefined;
      for (const [field, value] of Object.entries(expect ?? {}))
        if (row[field as keyof StoredBankNotification] !== value) throw new ConditionFailedError('changed meanwhile');
      row = { ...row, ...patch };
      await applyNow(followUps);
      return row;
    },
    async setBusinessStatus(
      _category: number,
      _id: number,
      patch: { notify_status: number; notified_at: number | null },
    ) {
      Object.assign(business, patch);
    },
  } as unknown as BankStore;
  installBankStore(store);
  return {
    store,
    row: () => row,
    business,
    set: (next: StoredBankNotification) => {
      row = next;
    },
  };
}

describe('bank notification channel statuses', () => {
  it('pushes a channel that is to be pushed (Pending) or was not pushed (Failed); Success is Pushed; the rest need no push', () => {
    expect(pushStatusOf(N.Pending)).toBe(P.Pending);
    expect(pushStatusOf(N.Failed)).toBe(P.Pending);
    expect(pushStatusOf(N.Success)).toBe(P.Pushed);
    for (const settled of [N.NoNeed, N.NoNotify, N.Duplication, N.ChannelClosed, N.NoTarget])
      expect(pushStatusOf(settled)).toBe(P.NoNeed);
  });

  it('starts a channel without a target at NoNeed, and one with a target at Pending', () => {
    expect(newChannelFields({ webhook: N.NoNeed, tg: N.Pending })).toEqual({
      status_webhook: P.NoNeed,
      pushed_webhook_at: null,
      notify_webhook: N.NoNeed,
      status_tg: P.Pending,
      pushed_tg_at: null,
      notify_tg: N.Pending,
      notify_status: N.Pending,
    });
  });

  it('records a delivered webhook as Pushed at its time, and the statement as notified then', async () => {
    const m = memoryStore(notification({ ...newChannelFields({ webhook: N.Pending, tg: N.NoNeed }) }));
    await settleChannel(m.store, m.row(), 'webhook', N.Success, T0 + 5);
    expect(m.row()).toMatchObject({
      status_webhook: P.Pushed,
      pushed_webhook_at: T0 + 5,
      notify_webhook: N.Success,
      notify_status: N.Success,
    });
    expect(m.business).toEqual({ notify_status: N.Success, notified_at: T0 + 5 });
  });

  it('keeps a failed webhook Pending (not pushed) with Failed as the reason', async () => {
    const m = memoryStore(notification({ ...newChannelFields({ webhook: N.Pending, tg: N.NoNeed }) }));
    await settleChannel(m.store, m.row(), 'webhook', N.Failed, T0);
    expect(m.row()).toMatchObject({
      status_webhook: P.Pending,
      pushed_webhook_at: null,
      notify_webhook: N.Failed,
      notify_status: N.Failed,
    });
    expect(m.business).toEqual({ notify_status: N.Failed, notified_at: null });
  });

  it('counts the chat that settled while the webhook was being delivered', async () => {
    const read = notification();
    // The chat's delivery settles Success between this delivery's read and its write.
    const m = memoryStore(read, (row) =>
      m.set({ ...row, status_tg: P.Pushed, notify_tg: N.Success, pushed_tg_at: T0 + 1 }),
    );
    await settleChannel(m.store, read, 'webhook', N.Failed);
    // Without reading the chat again, the webhook's Failed would have hidden the chat's Success.
    expect(m.row()).toMatchObject({ notify_webhook: N.Failed, notify_tg: N.Success, notify_status: N.Success });
    expect(m.business).toEqual({ notify_status: N.Success, notified_at: T0 + 1 });
  });
});
