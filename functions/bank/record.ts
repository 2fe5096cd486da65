import { NotifyStatus } from '../../shared/enums.js';
import { writeSequence } from '../lib/db/faults.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { logger } from '../lib/logger.js';
import type { BankStatementLine } from './drivers/bankDriver.js';
import { secondOfDay } from '../../shared/zoneClock.js';
import { bankNotification, Category, type NotifyTargets, statementNotification } from './notify.js';
import { cents } from './statementKey.js';
import {
  bankStore,
  type BankStore,
  type CountBatch,
  type StoredBalanceStat,
  type StoredBankAccount,
  type StoredSubAccount,
  type SubReading,
} from './store.js';

// Recording what a bank says, the one way both the poller and the inbound webhook do it, under the
// account's poll lease: a statement stored once by its key (dedup) with its notification, counted
// towards its sub-account's next reconciliation; a balance change stored as a balance stat
// reconciled against those statements, with its notification. The counts of every row written go
// out in one batch at the end (`finish`); each notification's deliveries are its follow-ups.
//
// Crash safety (issue 25, docs/bank-monitor.md "A crash at any write"): each step after the first
// write of a statement is keyed by what caused it: the claim of the statement's key names the ids
// of its row and notification, so a writer that reads the line again writes what a dead one left
// unwritten; a notification's deliveries and a balance change's stat and notification are
// follow-ups (lib/db/outbox.ts) of the write that makes them due. The reading (the cursor, the
// remembered keys, the sum to reconcile) is saved whole after the lines; a writer that died before
// saving it leaves the old one, so its lines are read again, and the ones it stored count again
// towards the sum (`countAfter`), unless its balance change was recorded (`reconciled_at`).

/** Statement key prefixes a sub-account remembers: a line read again costs no write. */
export const RECENT_KEYS = 200;
/** Enough of a key to tell lines apart (72 bits): the remembered list stays a few KB. */
const RECENT_PREFIX = 12;

/** The account and what one poll or push adds to its day: released with the lease. */
export interface RecordScope {
  store: BankStore;
  account: Pick<StoredBankAccount, 'id' | 'bank_name' | 'user'>;
  targets: NotifyTargets;
  now: number;
  timeZone: string;
  batch: CountBatch;
  tally: RecordTally;
}

export interface RecordTally {
  statements: number;
  balances: number;
  unreconciled: number;
  /** Statements per hour of the day in the configured zone (`h0`..`h23`). */
  hours: Record<string, number>;
  lastStatementAt?: number;
  /** Amounts of the statements stored (credits: inflows) and the largest |difference| of the balance changes: alert rules' figures. */
  credits?: number[];
  debits?: number[];
  drift?: number;
}

/** A sub-account as recording sees it: which one, its balance as stored, and where it was read to. */
export interface RecordedSub {
  id: number;
  no: string;
  available_balance: number | null;
  reading: SubReading;
  /**
   * A statement found stored after this instant that the reading does not remember counts towards
   * the sum (its writer died before saving the reading); undefined: none does (readingOf).
   */
  countAfter?: number;
  /** The sub-account's row as a recorded balance change wrote it (its balance and last refresh): no other write needed. */
  written?: StoredSubAccount;
}

/**
 * The reading a poll or push works from, as its last saver left it. When a balance change was
 * recorded after it was saved (its writer died between the two), the sum it holds was reconciled
 * by that change: it starts again at 0, and only statements stored after that change count again.
 */
export function readingOf(
  sub: Pick<StoredSubAccount, 'reconciled_at'>,
  saved: SubReading | undefined,
): { reading: SubReading; countAfter?: number } {
  if (!saved) return { reading: emptyReading() };
  const reconciled = sub.reconciled_at ?? 0;
  if (saved.saved_at === undefined) return { reading: saved };
  if (reconciled <= saved.saved_at) return { reading: saved, countAfter: saved.saved_at };
  return { reading: { ...saved, pending_cents: 0, pending_count: 0 }, countAfter: reconciled };
}

export function recordScope(
  store: BankStore,
  account: RecordScope['account'],
  targets: NotifyTargets,
  now: number,
  timeZone: string,
): RecordScope {
  return {
    store,
    account,
    targets,
    now,
    timeZone,
    batch: store.newCountBatch(),
    tally: { statements: 0, balances: 0, unreconciled: 0, hours: {} },
  };
}

export const emptyReading = (): SubReading => ({ cursor: null, recent: [], pending_cents: 0, pending_count: 0 });

const prefix = (key: string) => key.slice(0, RECENT_PREFIX);

/** Whether a line with this key was seen lately (no write needed to know it is stored). */
export function seenLately(reading: SubReading, key: string): boolean {
  const p = prefix(key);
  return reading.recent.some((r) => r.startsWith(p) || p.startsWith(r));
}

function remember(reading: SubReading, key: string): void {
  reading.recent.push(prefix(key));
  if (reading.recent.length > RECENT_KEYS) reading.recent.splice(0, reading.recent.length - RECENT_KEYS);
}

export type StatementOutcome = 'stored' | 'seen' | 'duplicate';

/**
 * Stores a statement line once: `seen` when the sub-account remembers its key, `duplicate` when
 * another writer stored it before. The first read of a sub-account (`baseline`) stores its lines as
 * history, No Notify (-2), without notifications, and does not count them for reconciliation.
 */
export async function recordStatement(
  scope: RecordScope,
  sub: RecordedSub,
  line: BankStatementLine,
  key: string,
  baseline = false,
): Promise<StatementOutcome> {
  if (seenLately(sub.reading, key)) return 'seen';
  const { store, account, targets, now } = scope;
  // A new statement's writes (claim, row, notification...) are the sequence `bank_statement` of the
  // fault hook (lib/db/faults.ts), inside a poll's or push's own: the kill test aims at them.
  const inSequence = (fn: () => ReturnType<BankStore['recordStatement']>) =>
    baseline ? fn() : writeSequence('bank_statement', fn);
  const recorded = await inSequence(() =>
    store.recordStatement(
      {
        bank_name: account.bank_name,
        account_id: account.id,
        sub_account_id: sub.id,
        sub_no: sub.no,
        human_date: line.time ? `${line.date} ${line.time}` : line.date,
        inflow: line.inflow,
        name: line.name,
        amount: line.amount,
        remark: line.remark,
        ref: line.ref ?? null,
        balance: null,
        key,
        send_date: line.date,
        send_time: line.time,
        notify_status: baseline ? NotifyStatus.values.NoNotify : targets.row,
        notified_at: null,
        created_at: now,
      },
      baseline ? undefined : (stored) => statementNotification(account, targets, sub, line, stored.id, now),
      { batch: scope.batch, ...(baseline ? {} : { countAfter: sub.countAfter }) },
    ),
  );
  remember(sub.reading, key);
  // Stored here, or by a writer that died before saving the reading: either way counted now.
  if (!recorded) return 'duplicate';
  if (!baseline) {
    sub.reading.pending_cents += line.inflow ? cents(line.amount) : -cents(line.amount);
    sub.reading.pending_count++;
    scope.tally.statements++;
    const hour = `h${Math.floor(secondOfDay(now, scope.timeZone) / 3600)}`;
    scope.tally.hours[hour] = (scope.tally.hours[hour] ?? 0) + 1;
    scope.tally.lastStatementAt = now;
    if (line.inflow) scope.tally.credits = [...(scope.tally.credits ?? []), line.amount];
    else scope.tally.debits = [...(scope.tally.debits ?? []), line.amount];
  }
  return 'stored';
}

/**
 * The notification of a statement stored before (a push of a line already recorded): the operator
 * sees the repeat, and its delivery ends Duplication instead of sending the statement twice.
 */
export async function recordRepeat(
  scope: RecordScope,
  sub: Pick<RecordedSub, 'id' | 'no'>,
  line: BankStatementLine,
  statementId: number,
): Promise<void> {
  await scope.store.createNotification(
    statementNotification(scope.account, scope.targets, sub, line, statementId, scope.now),
    { batch: scope.batch },
  );
}

/**
 * A balance change of `sub` to `cur`: a balance stat reconciled against the statements stored
 * since the last change, and its notification. Undefined when the balance did not move (or another
 * writer recorded this change). The sub-account's row takes `cur` in the same write that records
 * the stat and notification as its follow-ups (`sub.written`); its pending sum starts again at 0
 * (in `sub.reading`; the caller saves the reading).
 */
export async function recordBalance(scope: RecordScope, sub: RecordedSub, cur: number): Promise<boolean> {
  if (sub.available_balance === null) return false;
  const pre = sub.available_balance;
  const amountCents = cents(cur) - cents(pre);
  if (amountCents === 0) return false;
  const { store, account, targets, now } = scope;
  const pending = sub.reading.pending_cents;
  const differenceCents = amountCents - pending;
  const reconciled = differenceCents === 0;
  const recorded = await store.recordBalanceChange(
    { sub_id: sub.id, pre, cur, at: now },
    (ids) => [
      writeBalanceStat({
        stat: {
          id: ids.stat,
          bank_name: account.bank_name,
          account_id: account.id,
          sub_account_id: sub.id,
          sub_no: sub.no,
          pre_bal: pre,
          cur_bal: cur,
          amount: amountCents / 100,
          reconciled,
          difference: differenceCents / 100,
          statements_sum: pending / 100,
          statements_count: sub.reading.pending_count,
          notify_status: targets.row,
          notified_at: null,
          notification_id: ids.notification,
          created_at: now,
        },
        user: account.user,
        targets,
      }),
    ],
    { batch: scope.batch },
  );
  if (!recorded) return false;
  sub.written = recorded.sub;
  if (!reconciled) {
    logger.warn('bank balance change does not match its statements', {
      account_id: account.id,
      sub_account_id: sub.id,
      difference: differenceCents / 100,
    });
    scope.tally.unreconciled++;
  }
  scope.tally.balances++;
  scope.tally.drift = Math.max(scope.tally.drift ?? 0, Math.abs(differenceCents) / 100);
  sub.available_balance = cur;
  sub.reading.pending_cents = 0;
  sub.reading.pending_count = 0;
  return true;
}

type NewStat = Omit<StoredBalanceStat, 'updated_at'>;

/** A balance stat's notification, from the stat alone (and where its account's notifications go). */
function balanceNotification(stat: NewStat, user: string, targets: NotifyTargets) {
  return bankNotification({ id: stat.account_id, bank_name: stat.bank_name, user }, targets, {
    category: Category.Balance,
    business_id: stat.id,
    sub: { id: stat.sub_account_id, no: stat.sub_no },
    created_at: stat.created_at,
    context: {
      kind: 'balance',
      bank: stat.bank_name,
      account: stat.sub_no,
      pre_bal: stat.pre_bal.toFixed(2),
      cur_bal: stat.cur_bal.toFixed(2),
      amount: stat.amount.toFixed(2),
      reconciled: stat.reconciled,
      difference: stat.difference.toFixed(2),
    },
  });
}

/**
 * Follow-up of a balance change (store.recordBalanceChange): its stat and its notification, each
 * written once under the ids chosen before the change (the notification built from the stat).
 */
export const writeBalanceStat = defineFollowUp(
  'bank.balance_stat',
  ({ stat, user, targets }: { stat: NewStat; user: string; targets: NotifyTargets }, context) =>
    bankStore().writeBalanceStat(stat as StoredBalanceStat, balanceNotification(stat, user, targets), context?.counts),
);

/**
 * After the rows: their counts, one ADD per counter item. (A crash before it leaves a list's total
 * off until the counters' repair: list counters are not follow-ups, docs/data-model.md.)
 */
export async function finishRecording(scope: RecordScope): Promise<void> {
  await scope.store.flushCounts(scope.batch);
}

/** What a scope's tally adds to the account's day figures, for the release of its lease. */
export function tallyFigures(tally: RecordTally): Record<string, number> {
  return {
    ...(tally.statements ? { statements: tally.statements } : {}),
    ...(tally.balances ? { balances: tally.balances } : {}),
    ...(tally.unreconciled ? { unreconciled: tally.unreconciled } : {}),
    ...tally.hours,
  };
}
