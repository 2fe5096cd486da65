import { NotifyStatus } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { enqueueDeliveries } from './deliveryMessages.js';
import type { BankStatementLine } from './drivers/bankDriver.js';
import { secondOfDay } from './monitorSchedule.js';
import { bankNotification, Category, type NotifyTargets, statementNotification } from './notify.js';
import { cents } from './statementKey.js';
import type {
  BankStore,
  CountBatch,
  StoredBalanceStat,
  StoredBankAccount,
  StoredBankNotification,
  SubReading,
} from './store.js';

// Recording what a bank says, the one way both the poller and the inbound webhook do it, under the
// account's poll lease: a statement stored once by its key (dedup) with its notification, counted
// towards its sub-account's next reconciliation; a balance change stored as a balance stat
// reconciled against those statements, with its notification. The counts of every row written go
// out in one batch at the end (`finish`), with the deliveries of every notification.
//
// Each step after the first write of a statement is keyed by what caused it: the notification
// takes the statement's (or balance stat's) id, and the sub-account's reading is rewritten whole
// from the lines read, so doing a step again writes nothing new.

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
  /** Notifications written, delivered at `finish`. */
  written: StoredBankNotification[];
  tally: RecordTally;
}

export interface RecordTally {
  statements: number;
  balances: number;
  unreconciled: number;
  /** Statements per hour of the day in the configured zone (`h0`..`h23`). */
  hours: Record<string, number>;
  lastStatementAt?: number;
}

/** A sub-account as recording sees it: which one, its balance as stored, and where it was read to. */
export interface RecordedSub {
  id: number;
  no: string;
  available_balance: number | null;
  reading: SubReading;
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
    written: [],
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
  const recorded = await store.recordStatement(
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
    { batch: scope.batch },
  );
  remember(sub.reading, key);
  if (!recorded) return 'duplicate';
  if (recorded.notification) scope.written.push(recorded.notification);
  if (!baseline) {
    sub.reading.pending_cents += line.inflow ? cents(line.amount) : -cents(line.amount);
    sub.reading.pending_count++;
    scope.tally.statements++;
    const hour = `h${Math.floor(secondOfDay(now, scope.timeZone) / 3600)}`;
    scope.tally.hours[hour] = (scope.tally.hours[hour] ?? 0) + 1;
    scope.tally.lastStatementAt = now;
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
  const n = await scope.store.createNotification(
    statementNotification(scope.account, scope.targets, sub, line, statementId, scope.now),
    { batch: scope.batch },
  );
  scope.written.push(n);
}

/**
 * A balance change of `sub` to `cur`: a balance stat reconciled against the statements stored
 * since the last change, and its notification. Undefined when the balance did not move. The
 * sub-account's pending sum starts again at 0 and its balance becomes `cur` (in `sub`; the caller
 * writes the sub-account).
 */
export async function recordBalance(
  scope: RecordScope,
  sub: RecordedSub,
  cur: number,
): Promise<StoredBalanceStat | undefined> {
  if (sub.available_balance === null) return undefined;
  const pre = sub.available_balance;
  const amountCents = cents(cur) - cents(pre);
  if (amountCents === 0) return undefined;
  const { store, account, targets, now } = scope;
  const pending = sub.reading.pending_cents;
  const differenceCents = amountCents - pending;
  const reconciled = differenceCents === 0;
  const { stat, notification } = await store.recordBalanceStat(
    {
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
      created_at: now,
    },
    (stored) =>
      bankNotification(account, targets, {
        category: Category.Balance,
        business_id: stored.id,
        sub: { id: sub.id, no: sub.no },
        created_at: now,
        context: {
          kind: 'balance',
          bank: account.bank_name,
          account: sub.no,
          pre_bal: pre.toFixed(2),
          cur_bal: cur.toFixed(2),
          amount: (amountCents / 100).toFixed(2),
          reconciled,
          difference: (differenceCents / 100).toFixed(2),
        },
      }),
    { batch: scope.batch },
  );
  if (!reconciled) {
    logger.warn('bank balance change does not match its statements', {
      account_id: account.id,
      sub_account_id: sub.id,
      difference: stat.difference,
    });
    scope.tally.unreconciled++;
  }
  scope.written.push(notification);
  scope.tally.balances++;
  sub.available_balance = cur;
  sub.reading.pending_cents = 0;
  sub.reading.pending_count = 0;
  return stat;
}

/** After the rows: their counts, one ADD per counter item, and the deliveries of the notifications written. */
export async function finishRecording(scope: RecordScope): Promise<void> {
  await Promise.all([scope.store.flushCounts(scope.batch), enqueueDeliveries(scope.written)]);
  scope.written = [];
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
