import { BankAccountStatus } from '../../shared/enums.js';
import { ConditionFailedError } from '../lib/db/entity.js';
import { isBankChatOn } from './bankChat.js';
import { rangeEnteredAt } from './monitorSchedule.js';
import { Category, createBankNotification, notifyTargets } from './notify.js';
import type { BankStore, StoredBankAccount } from './store.js';
import { recordMetric } from '../lib/metrics.js';

// An enabled account inside its range with no successful poll for STALE_INTERVALS intervals, whose
// polls ran and failed, is stale: flagged on the account (tables, detail header) with one
// notification when the episode starts and one when a poll succeeds again. The flag flips with a
// conditional write, so two dispatchers (or a dispatcher and a poller) never notify one episode twice.
//
// "Ran and failed" (a poll finished after the last success) tells the account's trouble from the
// monitor's: when polls wait in a backlog, every account would otherwise turn stale at once, and
// the notices' writes would join the backlog they report (docs/bank-monitor.md, "Staleness").

export const STALE_INTERVALS = 3;

/**
 * When the account's polls should have started succeeding (the latest of its last success, range
 * start and enabling), if it is stale now: that long ago, and a poll has failed since.
 */
export function staleSince(account: StoredBankAccount, now: number, timeZone: string): number | undefined {
  if (account.status !== BankAccountStatus.values.Enable) return undefined;
  const entered = rangeEnteredAt(account.monitor_range, now, timeZone);
  if (entered === undefined) return undefined;
  const since = Math.max(account.last_success ?? 0, entered, account.enabled_at ?? 0);
  const failedSince = (account.last_refresh ?? 0) > since;
  return failedSince && now - since > STALE_INTERVALS * account.monitor_interval * 1000 ? since : undefined;
}

/** Marks the account stale when it is; true when this call started the episode. */
export async function markIfStale(
  store: BankStore,
  account: StoredBankAccount,
  now: number,
  timeZone: string,
  chatOn: () => Promise<boolean> = isBankChatOn,
): Promise<boolean> {
  if (account.stale) return false;
  const since = staleSince(account, now, timeZone);
  if (since === undefined) return false;
  try {
    await store.updateAccount(account.id, { stale: true, stale_since: now }, { stale: false });
  } catch (error) {
    if (error instanceof ConditionFailedError || (error as Error).name === 'BankAccountNotFoundError') return false;
    throw error;
  }
  recordMetric('BankAccountsStale');
  await createBankNotification(store, account, notifyTargets(account, await chatOn()), {
    category: Category.Monitor,
    business_id: account.id,
    sub: null,
    created_at: now,
    context: {
      kind: 'stale',
      bank: account.bank_name,
      user: account.user,
      since,
      interval: account.monitor_interval,
    },
  });
  return true;
}

/** Ends a stale episode after a successful poll; true when this call ended it. */
export async function recoverIfStale(
  store: BankStore,
  account: StoredBankAccount,
  now: number,
  chatOn: () => Promise<boolean> = isBankChatOn,
): Promise<boolean> {
  if (!account.stale) return false;
  try {
    await store.updateAccount(account.id, { stale: false, stale_since: null }, { stale: true });
  } catch (error) {
    if (error instanceof ConditionFailedError || (error as Error).name === 'BankAccountNotFoundError') return false;
    throw error;
  }
  await createBankNotification(store, account, notifyTargets(account, await chatOn()), {
    category: Category.Monitor,
    business_id: account.id,
    sub: null,
    created_at: now,
    context: {
      kind: 'recovered',
      bank: account.bank_name,
      user: account.user,
      stale_since: account.stale_since ?? now,
      recovered_at: now,
    },
  });
  return true;
}
