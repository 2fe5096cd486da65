import { addDays, dayOf, dayStart } from '../../shared/calendarDay.js';
import { BankAccountStatus } from '../../shared/enums.js';
import { ConditionFailedError } from '../lib/db/entity.js';
import { logger } from '../lib/logger.js';
import { recordMetric } from '../lib/metrics.js';
import type { FollowUp } from '../lib/db/entity.js';
import { BankAccountNotFoundError } from './errors.js';
import { accountIncident } from './incidents.js';
import { rangeEnteredAt } from './monitorSchedule.js';
import { bankNotification, Category, notifyTargets } from './notify.js';
import type { BankStore, PollStateData, StoredBankAccount } from './store.js';

// An enabled account inside its range with no successful poll for STALE_INTERVALS intervals, whose
// polls ran and failed, is stale: flagged on the account (tables, detail header) with one
// notification when the episode starts and one when a poll succeeds again. The flag flips with a
// conditional write, so two dispatchers (or a dispatcher and a poller) never notify one episode twice.
//
// "Ran and failed" (a poll finished after the last success) tells the account's trouble from the
// monitor's: when polls wait in a backlog, every account would otherwise turn stale at once, and
// the notices' writes would join the backlog they report (docs/bank-monitor.md, "Staleness").

export const STALE_INTERVALS = 3;

export interface StalenessDeps {
  store: BankStore;
  chatOn: () => Promise<boolean>;
  /** The configured zone: an ended episode's time is added to the day records it spans (reports' stale minutes). */
  timeZone?: () => Promise<string>;
}

/**
 * An ended episode's milliseconds on each day (configured zone) it spans, ADDed to the accounts' day
 * records (`stale_ms`, read by reports, docs/reports.md): one or two writes, once per episode (its
 * flag's flip decides who ends it).
 */
async function recordStaleTime(deps: StalenessDeps, accountId: number, from: number, to: number): Promise<void> {
  if (!deps.timeZone || !(to > from)) return;
  const zone = await deps.timeZone();
  for (let day = dayOf(from, zone); ; day = addDays(day, 1)) {
    const start = Math.max(from, dayStart(day, zone));
    const end = Math.min(to, dayStart(addDays(day, 1), zone));
    if (end > start) await deps.store.addDayFigures(day, accountId, { stale_ms: end - start });
    if (end >= to) return;
  }
}

/** What staleness reads of the poll record: the last poll's end and the last success. */
export type PollTimes = Pick<PollStateData, 'last_refresh' | 'last_success'>;

/**
 * When the account's polls should have started succeeding (the latest of its last success, range
 * start and enabling), if it is stale now: that long ago, and a poll has failed since.
 */
export function staleSince(
  account: StoredBankAccount,
  poll: PollTimes,
  now: number,
  timeZone: string,
): number | undefined {
  if (account.status !== BankAccountStatus.values.Enable) return undefined;
  const entered = rangeEnteredAt(account.monitor_range, now, timeZone);
  if (entered === undefined) return undefined;
  const since = Math.max(poll.last_success ?? 0, entered, account.enabled_at ?? 0);
  const failedSince = (poll.last_refresh ?? 0) > since;
  return failedSince && now - since > STALE_INTERVALS * account.monitor_interval * 1000 ? since : undefined;
}

/**
 * Flips the stale flag (conditional on its old value); false when another writer flipped it first.
 * The account's incident opens or resolves with the flip, as its follow-up (incidents.ts).
 */
async function flip(
  store: BankStore,
  id: number,
  stale: boolean,
  since: number | null,
  followUp: FollowUp,
): Promise<boolean> {
  try {
    await store.transitionAccount(
      id,
      { stale, stale_since: since },
      { expect: { stale: !stale }, followUps: [followUp] },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError || error instanceof BankAccountNotFoundError) return false;
    throw error;
  }
}

/** Marks the account stale when it is; true when this call started the episode. */
export async function markIfStale(
  deps: StalenessDeps,
  account: StoredBankAccount,
  poll: PollTimes,
  now: number,
  timeZone: string,
): Promise<boolean> {
  if (account.stale) return false;
  const since = staleSince(account, poll, now, timeZone);
  if (since === undefined) return false;
  const opens = accountIncident(
    account,
    true,
    'stale',
    now,
    `Stale: no successful poll for ${STALE_INTERVALS} intervals`,
  );
  if (!(await flip(deps.store, account.id, true, now, opens))) return false;
  recordMetric('BankAccountsStale');
  // Its deliveries are the notification's follow-ups (store.ts createNotification).
  await deps.store.createNotification(
    bankNotification(account, notifyTargets(account, await deps.chatOn()), {
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
    }),
  );
  return true;
}

/** Ends a stale episode after a successful poll; true when this call ended it. */
export async function recoverIfStale(deps: StalenessDeps, account: StoredBankAccount, now: number): Promise<boolean> {
  if (!account.stale) return false;
  const resolves = accountIncident(account, false, 'recovered', now, 'The account polls well again');
  if (!(await flip(deps.store, account.id, false, null, resolves))) return false;
  if (typeof account.stale_since === 'number')
    await recordStaleTime(deps, account.id, account.stale_since, now).catch((error: unknown) =>
      logger.warn('stale time not recorded', { account_id: account.id, error }),
    );
  // Its deliveries are the notification's follow-ups (store.ts createNotification).
  await deps.store.createNotification(
    bankNotification(account, notifyTargets(account, await deps.chatOn()), {
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
    }),
  );
  return true;
}
