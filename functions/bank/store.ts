import { BankAccountStatus, BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import type { BankAccountStatusValue, NotifyStatusValue } from '../../shared/schemas/bank.js';
import { CounterBatch, readCounter } from '../lib/db/counters.js';
import { ConditionFailedError, type FollowUp, type ListOutcome } from '../lib/db/entity.js';
import { idFromBlock, nextId } from '../lib/db/ids.js';
import type { RecordChange } from '../lib/db/keyedRecords.js';
import type { LeaseRecord, LeaseTake } from '../lib/db/lease.js';
import { parentKey } from '../lib/db/keys.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { applyPendingOf, clearRecorded, defineFollowUp } from '../lib/db/outbox.js';
import {
  claimIfFree,
  claimUnique,
  claimWithFollowUps,
  findUniqueClaim,
  findUniqueOwner,
  releaseUnique,
  UniqueTakenError,
  uniqueKey,
} from '../lib/db/unique.js';
import { logger } from '../lib/logger.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import {
  balanceStatEntity,
  bankAccountEntity,
  bankNotificationEntity,
  bankNotificationHistoryEntity,
  type DayFigures,
  dayRollups,
  deliveredStatements,
  dispatchWindow,
  type PollStateData,
  pausedWebhooks,
  pollStates,
  type StoredBalanceStat,
  type StoredBankAccount,
  type StoredBankNotification,
  type StoredHistory,
  type StoredStatement,
  type StoredSubAccount,
  statementEntity,
  type SubReading,
  subAccountEntity,
  subReadings,
  type WebhookHealth,
  webhookHealth,
} from './entities.js';
import { deliveriesOf, firstDeliveries, sendDeliveries } from './deliveryMessages.js';
import { BankAccountExistsError, BankAccountNotFoundError, SubAccountNotFoundError } from './errors.js';

export type {
  PollStateData,
  StoredBalanceStat,
  StoredBankAccount,
  StoredBankNotification,
  StoredHistory,
  StoredStatement,
  StoredSubAccount,
  SubReading,
} from './entities.js';

type New<T> = Omit<T, 'id' | 'created_at' | 'updated_at'> & { created_at?: number };

/** Counts of rows written over one piece of work, moved once at its end (flushCounts). */
export type CountBatch = CounterBatch;

/** The delivery health of an account's webhook, as delivery and the API see it. */
export interface WebhookStateRecord {
  paused_at: number | null;
  consecutive_failures: number;
  failing_since: number | null;
}

/**
 * The one port over every stored shape of the bank feature (entities.ts): accounts, sub-accounts,
 * statements, balance stats, bank notifications and their delivery history, and the small records
 * beside them (the poll state and lease, reading positions, rollups, the webhook's health, the
 * claims). The poller, the inbound webhook and the delivery all reach them through it, and take it
 * as a dependency (passed in by their entry points), as Powertools' idempotency takes its
 * persistence store. An account is unique per bank and user; a sub-account per account and number;
 * a statement per key (statementKey.ts).
 */
export interface BankStore {
  // ---- Accounts ----
  newAccountId(): Promise<number>;
  /** Throws BankAccountExistsError. `id` from newAccountId() (secrets are encrypted for it first). */
  createAccount(account: New<StoredBankAccount> & { id: number }): Promise<StoredBankAccount>;
  getAccount(id: number): Promise<StoredBankAccount | undefined>;
  /** With the ciphertexts (the poller, the reveals, the delivery). Eventually consistent unless asked. */
  getAccountWithSecrets(id: number, options?: { consistent?: boolean }): Promise<StoredBankAccount | undefined>;
  getAccounts(ids: number[]): Promise<StoredBankAccount[]>;
  listAccounts(query: ListQuery): Promise<ListOutcome<StoredBankAccount>>;
  /** Every account with status 1 (the dispatcher's read). */
  enabledAccounts(): Promise<StoredBankAccount[]>;
  /** Every account with status 1 whose API key has this digest, with its secrets. */
  enabledAccountsByKeyHash(hash: string): Promise<StoredBankAccount[]>;
  /** Throws BankAccountNotFoundError; BankAccountExistsError when a new user is taken. `expect` as the repository's. */
  updateAccount(
    id: number,
    patch: Partial<StoredBankAccount>,
    expect?: Record<string, unknown>,
  ): Promise<StoredBankAccount>;
  /** Sets the signing secret; with `onlyIfNone`, false when one was set meanwhile. */
  setWebhookSecret(id: number, enc: string, onlyIfNone: boolean): Promise<boolean>;
  /** Accounts per status, from the kept counts (one small read per status). */
  accountsByStatus(): Promise<{ counts: { status: BankAccountStatusValue; count: number }[]; rcu: number }>;
  /** Ids of the accounts flagged stale. */
  staleAccounts(): Promise<{ ids: number[]; rcu: number }>;

  // ---- The poll state: the account's lease and what polls keep ----
  /** Takes the account's poll lease; the state comes back with it (no read of its own). */
  takePollLease(accountId: number, holder: string, now: number, ms: number): Promise<LeaseTake<PollStateData>>;
  /** Releases it with the poll's outcome written in the same write; false when the lease was lost. */
  releasePollLease(accountId: number, holder: string, change: RecordChange): Promise<boolean>;
  pollStatesOf(accountIds: number[], now: number): Promise<Map<number, LeaseRecord<PollStateData>>>;
  allPollStates(now: number): Promise<{ states: Map<number, LeaseRecord<PollStateData>>; rcu: number }>;

  // ---- Sub-accounts ----
  subsOf(accountId: number): Promise<StoredSubAccount[]>;
  getSub(id: number): Promise<StoredSubAccount | undefined>;
  getSubs(ids: number[]): Promise<StoredSubAccount[]>;
  listSubs(query: ListQuery): Promise<ListOutcome<StoredSubAccount>>;
  /** A new sub-account; undefined when the account already has this number. */
  createSub(sub: New<StoredSubAccount>): Promise<StoredSubAccount | undefined>;
  /**
   * Throws SubAccountNotFoundError. A change made outside a poll (`byOperator`) also marks the
   * account's sub-account snapshot out of date, so the next poll reads the sub-accounts again.
   */
  updateSub(
    id: number,
    patch: Partial<StoredSubAccount>,
    options?: { byOperator?: boolean },
  ): Promise<StoredSubAccount>;
  /** Where each sub-account's statements were read to (a sub-account never read has none). */
  readings(subs: StoredSubAccount[]): Promise<Map<number, SubReading>>;
  saveReading(subId: number, reading: SubReading): Promise<void>;

  // ---- Statements, balance stats, notifications ----
  /** Counts of the rows written by one poll or push, moved together at its end. */
  newCountBatch(): CountBatch;
  flushCounts(batch: CountBatch): Promise<void>;
  /**
   * Stores a statement once per key, with its notification: the key claimed for the statement's id
   * (the claim also names the notification's id), the row, then the notification (none for a line
   * of the baseline history), whose deliveries are its follow-ups. Undefined when the key was
   * stored before (by any writer): a duplicate. A claim whose rows a writer that died left
   * unwritten is completed here, with the ids it names, and answered as stored (`fresh`); so is a
   * statement stored after `countAfter` (its writer died before saving its reading), with `fresh`
   * false (record.ts counts it towards its sub-account's reconciliation again).
   */
  recordStatement(
    statement: New<StoredStatement>,
    notification: ((stored: StoredStatement) => New<StoredBankNotification>) | undefined,
    options?: { batch?: CountBatch; id?: number; countAfter?: number },
  ): Promise<{ statement: StoredStatement; notification?: StoredBankNotification; fresh: boolean } | undefined>;
  /** The id of the statement stored under `key`, if any. */
  statementIdOf(key: string): Promise<number | undefined>;
  /**
   * A balance change of a sub-account (`pre` to `cur`): one conditional write moves the
   * sub-account's balance (only while it is still `pre`; undefined otherwise: another writer
   * recorded it) with its last refresh and `reconciled_at`, and records `followUps` (the balance
   * stat and its notification, record.ts) under the ids chosen for them before. Applied here, the
   * follow-ups add their rows' counts to `batch` (the poll's), moved with the rest of its rows.
   */
  recordBalanceChange(
    change: { sub_id: number; pre: number; cur: number; at: number },
    followUps: (ids: { stat: number; notification: number }) => FollowUp[],
    options?: { batch?: CountBatch },
  ): Promise<{ sub: StoredSubAccount; ids: { stat: number; notification: number } } | undefined>;
  /**
   * Writes a balance change's stat and notification under their ids, each once (the change's
   * follow-up); their counts go to `counts` when lent (the writer moves them), else are moved here.
   */
  writeBalanceStat(
    stat: StoredBalanceStat,
    notification: New<StoredBankNotification>,
    counts?: { add(partitions: Iterable<string>, delta?: number): void },
  ): Promise<void>;
  /** A notification of its own (a monitor notice, a repeated statement). */
  createNotification(n: New<StoredBankNotification>, options?: { batch?: CountBatch }): Promise<StoredBankNotification>;
  listStatements(query: ListQuery): Promise<ListOutcome<StoredStatement>>;
  listBalanceStats(query: ListQuery): Promise<ListOutcome<StoredBalanceStat>>;
  /** The newest balance stat that did not match its statements. */
  latestUnreconciled(): Promise<{ stat: StoredBalanceStat | undefined; rcu: number }>;

  // ---- Delivery ----
  getNotification(id: number): Promise<StoredBankNotification | undefined>;
  getNotifications(ids: number[]): Promise<StoredBankNotification[]>;
  /**
   * `expect`: fields that must still hold these values (undefined: absent); else ConditionFailedError.
   * `basis`: the notification as last read, which spares the read that moving its slots takes.
   */
  updateNotification(
    id: number,
    patch: Partial<StoredBankNotification>,
    expect?: Partial<StoredBankNotification>,
    basis?: StoredBankNotification,
    followUps?: FollowUp[],
  ): Promise<StoredBankNotification>;
  listNotifications(query: ListQuery): Promise<ListOutcome<StoredBankNotification>>;
  /** Every notification whose webhook channel ended Failed (of one account when given). */
  failedNotifications(accountId?: number): Promise<StoredBankNotification[]>;
  /** The notify status of the statement (category 1) or balance stat (category 2) it is about. */
  setBusinessStatus(
    category: number,
    id: number,
    patch: { notify_status: NotifyStatusValue; notified_at: number | null },
  ): Promise<void>;
  /** A history row; under `id` (newHistoryId, chosen before), written once however often this runs. */
  addHistory(row: New<StoredHistory>, id?: number): Promise<StoredHistory | undefined>;
  newHistoryId(): Promise<number>;
  listHistory(query: ListQuery): Promise<ListOutcome<StoredHistory>>;
  historyOf(notificationId: number): Promise<StoredHistory[]>;
  webhookState(accountId: number): Promise<WebhookStateRecord>;
  /** One failed attempt: counts it (atomically) and returns the state after it. */
  recordFailure(accountId: number, now: number): Promise<WebhookStateRecord>;
  recordSuccess(accountId: number): Promise<void>;
  /** Pauses the webhook at `pausedAt` unless it is paused already (that pause kept), or resumes it (null). */
  setPaused(accountId: number, pausedAt: number | null): Promise<void>;
  pausedAccounts(): Promise<number[]>;
  /**
   * Claims the delivery of a statement to its account's webhook for a notification; the owner when
   * another notification holds or completed it (Duplication).
   */
  claimDelivery(
    statementId: number,
    notificationId: number,
    now: number,
  ): Promise<{ claimed: boolean; owner?: number }>;
  /** The statement was delivered: the claim is kept for good. */
  completeDelivery(statementId: number, notificationId: number): Promise<void>;
  /** Nothing was delivered: another notification of the statement may deliver it. */
  releaseDelivery(statementId: number, notificationId: number): Promise<void>;

  // ---- Rollups ----
  /** Adds to an account's figures of a day (deliveries, the days a poll rolls over). */
  addDayFigures(day: string, accountId: number, figures: DayFigures): Promise<void>;
  dayFigures(
    day: string,
    fields?: readonly (keyof DayFigures)[],
  ): Promise<{ figures: Map<number, DayFigures>; rcu: number }>;
  /** Sets an account's figures of a day as counted again from the rows (the rollups' repair). */
  setDayFigures(day: string, accountId: number, figures: DayFigures): Promise<void>;
  /** Every statement, balance stat and bank notification still kept (the rollups' repair reads them all). */
  keptRows(): Promise<{
    statements: StoredStatement[];
    stats: StoredBalanceStat[];
    notifications: StoredBankNotification[];
  }>;

  // ---- The dispatcher's window ----
  /** Takes the window's lease: the end of the last window sent, or taken: false while another dispatcher works. */
  takeDispatchWindow(holder: string, now: number, ms: number): Promise<{ taken: boolean; until: number }>;
  /** Moves the end of the window (and frees the lease); false when the lease was lost meanwhile. */
  advanceDispatchWindow(holder: string, until: number): Promise<boolean>;
  /** The end of the last window sent (ms), 0 before the first. */
  dispatchedUntil(): Promise<number>;
}

const accountKey = (bank: number, user: string) => `${bank}#${user}`;
const subKey = (accountId: number, no: string) => `${accountId}#${no}`;
/** A claimed statement key's owner: the statement's id. */
const STATEMENT_KEY = { type: statementEntity.type, field: 'key' } as const;
/** How long a delivery may hold a statement's claim before another may take it (the attempt's timeout, with room). */
const DELIVERY_CLAIM_MS = 5 * 60_000;

function toState(h: WebhookHealth | undefined): WebhookStateRecord {
  return {
    paused_at: h?.paused_at ?? null,
    consecutive_failures: h?.failures ?? 0,
    failing_since: h?.failing_since ?? null,
  };
}

/** How long a claim's deliveries wait for the notification it names before the sweeper gives them up. */
const CLAIMED_NOTIFICATION_WAIT_MS = 24 * 3600_000;

/**
 * Follow-up of a statement's key claim (recordStatement): the first deliveries of the notification
 * the claim names, recorded in the claim's own PutItem, so the notification is written plain (no
 * entry of its own, no clear of its ~1 KB row: the claim is a small item) and its deliveries are
 * still never lost. Its writer sends them once the notification is written and clears the claim's
 * entry; the sweeper applies an entry left behind, and only once the notification is there (a
 * writer that died before it leaves it to the reader that finishes the statement,
 * `completeClaimed`, which then applies the entry itself). A claim whose notification never comes
 * (its line never read again) is given up after a day.
 */
export const deliverClaimed = defineFollowUp('bank.deliver_claimed', async (n: { id: number; at: number }) => {
  // Its channels as the notification says now: one settled meanwhile is not sent again.
  const found = await bankStore().getNotification(n.id);
  if (found) return sendDeliveries(firstDeliveries(found));
  if (Date.now() - n.at < CLAIMED_NOTIFICATION_WAIT_MS) throw new Error(`notification ${n.id} is not written yet`);
  logger.error('a claimed statement notification never came; its deliveries are given up', { notification_id: n.id });
});

export function dynamoBankStore(
  accounts: DynamoRepository<StoredBankAccount> = createRepository(bankAccountEntity),
  subs: DynamoRepository<StoredSubAccount> = createRepository(subAccountEntity),
  statements: DynamoRepository<StoredStatement> = createRepository(statementEntity),
  stats: DynamoRepository<StoredBalanceStat> = createRepository(balanceStatEntity),
  notifications: DynamoRepository<StoredBankNotification> = createRepository(bankNotificationEntity),
  history: DynamoRepository<StoredHistory> = createRepository(bankNotificationHistoryEntity),
): BankStore {
  const onAccount = <R>(id: number, write: Promise<R>) =>
    onConditionFailure(write, () => new BankAccountNotFoundError(id));

  async function claimAccount(bank: number, user: string, id: number) {
    try {
      await claimUnique(bankAccountEntity.type, 'user', accountKey(bank, user), id);
    } catch (error) {
      if (error instanceof UniqueTakenError) throw new BankAccountExistsError(user);
      throw error;
    }
  }

  /** A create under an id chosen before: a second write of it (a follow-up applied again) is no error. */
  async function createOnce(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  /** A notification under its chosen id, once, its deliveries recorded with it as follow-ups. */
  async function createNotificationOnce(
    data: New<StoredBankNotification>,
    id: number,
    batch?: CountBatch,
    /** Its deliveries are recorded elsewhere (its statement's claim): the row carries none. */
    deliveriesElsewhere = false,
  ): Promise<StoredBankNotification> {
    const followUps = deliveriesElsewhere
      ? []
      : deliveriesOf({ id, notify_webhook: data.notify_webhook, notify_tg: data.notify_tg });
    try {
      return await notifications.create(data, { id, counts: batch, followUps });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      const found = await notifications.get(id);
      if (!found) throw error;
      return found;
    }
  }

  /**
   * The key was claimed before. When the claim's rows are missing (their writer died after the
   * claim), this writer writes them, under the ids the claim names, and the statement counts as
   * stored here. When they are there, it is a duplicate, unless it was stored after `countAfter`.
   */
  async function completeClaimed(
    data: New<StoredStatement>,
    notify: ((stored: StoredStatement) => New<StoredBankNotification>) | undefined,
    options: { batch?: CountBatch; countAfter?: number },
  ): Promise<{ statement: StoredStatement; notification?: StoredBankNotification; fresh: boolean } | undefined> {
    const claim = await findUniqueClaim(STATEMENT_KEY.type, STATEMENT_KEY.field, data.key);
    if (!claim) return undefined;
    const notificationId = claim.also.notification;
    const [found, foundNotification] = await Promise.all([
      statements.get(claim.owner),
      notificationId === undefined ? undefined : notifications.get(notificationId),
    ]);
    let statement = found;
    let fresh = false;
    if (!statement) {
      try {
        statement = await statements.create(data, { id: claim.owner, counts: options.batch });
        fresh = true;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        statement = await statements.get(claim.owner);
        if (!statement) throw error;
      }
    }
    let notification = foundNotification;
    // The claim carries the notification's deliveries (a writer of this version): written plain,
    // then the claim's entry applied here. An older claim without them: the notification carries its own.
    if (!notification && notify && notificationId !== undefined)
      notification = await createNotificationOnce(
        notify(statement),
        notificationId,
        options.batch,
        claim.followUpsPending,
      );
    if (claim.followUpsPending && notification)
      await applyPendingOf(uniqueKey(STATEMENT_KEY.type, STATEMENT_KEY.field, data.key));
    const counted = fresh || (options.countAfter !== undefined && statement.created_at > options.countAfter);
    if (!counted) return undefined;
    return { statement, ...(notification ? { notification } : {}), fresh };
  }

  const store: BankStore = {
    newAccountId: () => nextId(bankAccountEntity.type),
    async createAccount({ id, ...data }) {
      await claimAccount(data.bank_name, data.user, id);
      try {
        return await accounts.create(data, { id });
      } catch (error) {
        await releaseUnique(bankAccountEntity.type, 'user', accountKey(data.bank_name, data.user), id);
        throw error;
      }
    },
    getAccount: (id) => accounts.get(id),
    getAccountWithSecrets: (id) => accounts.getWithHidden(id),
    getAccounts: (ids) => accounts.getMany([...new Set(ids)]),
    listAccounts: (query) => accounts.list(query),
    enabledAccounts: () => accounts.all({ scope: { status: BankAccountStatus.values.Enable } }),
    async enabledAccountsByKeyHash(hash) {
      // The same index read for a key that no account holds and for one only a disabled account
      // holds: a refused key answers alike, in the same time.
      const found = await accounts.allWithHidden({ scope: { api_key_hash: hash } });
      return found.filter((a) => a.status === BankAccountStatus.values.Enable);
    },

    async updateAccount(id, patch, expect) {
      if (patch.user !== undefined) {
        const current = await accounts.get(id);
        if (!current) throw new BankAccountNotFoundError(id);
        if (current.user !== patch.user) {
          await claimAccount(current.bank_name, patch.user, id);
          try {
            const updated = await onAccount(
              id,
              accounts.update(id, patch, { expect: { ...expect, user: current.user } }),
            );
            await releaseUnique(bankAccountEntity.type, 'user', accountKey(current.bank_name, current.user), id);
            return updated;
          } catch (error) {
            await releaseUnique(bankAccountEntity.type, 'user', accountKey(current.bank_name, patch.user), id);
            throw error;
          }
        }
      }
      return onAccount(id, accounts.update(id, patch, expect ? { expect } : undefined));
    },
    async setWebhookSecret(id, enc, onlyIfNone) {
      try {
        await accounts.update(
          id,
          { webhook_secret_enc: enc },
          onlyIfNone ? { expect: { webhook_secret_enc: undefined } } : undefined,
        );
        return true;
      } catch (error) {
        if (onlyIfNone && error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
    async accountsByStatus() {
      const reads = await Promise.all(
        BankAccountStatus.options.map(async ({ value }) => ({
          status: value,
          ...(await readCounter(parentKey(bankAccountEntity.type, 'status', String(value)))),
        })),
      );
      return {
        counts: reads.map(({ status, count }) => ({ status, count })),
        rcu: reads.reduce((a, r) => a + r.rcu, 0),
      };
    },
    async staleAccounts() {
      const out = await accounts.list({
        ...emptyListQuery({ page_size: 0 }),
        filters: { stale: { kind: 'boolean', value: true } },
      });
      return { ids: out.result.map((a) => a.id), rcu: out.consumed_rcu };
    },

    takePollLease: (accountId, holder, now, ms) => pollStates.take(accountId, { holder, now, ms }),
    releasePollLease: (accountId, holder, change) => pollStates.release(accountId, holder, change),
    async pollStatesOf(ids, now) {
      const found = await pollStates.readMany(ids, { now });
      return new Map([...found].map(([k, v]) => [Number(k), v]));
    },
    async allPollStates(now) {
      const { records, rcu } = await pollStates.all({ now });
      return { states: new Map([...records].map(([k, v]) => [Number(k), v])), rcu };
    },

    subsOf: (accountId) => subs.allWithHidden({ scope: { account_id: accountId } }),
    getSub: (id) => subs.getWithHidden(id),
    getSubs: (ids) => subs.getMany([...new Set(ids)]),
    listSubs: (query) => subs.list(query),
    async createSub(data) {
      const id = await nextId(subAccountEntity.type);
      if (!(await claimIfFree(subAccountEntity.type, 'no', subKey(data.account_id, data.no), id))) return undefined;
      return subs.create(data, { id });
    },
    async updateSub(id, patch, options) {
      const updated = await onConditionFailure(subs.update(id, patch), () => new SubAccountNotFoundError(id));
      if (options?.byOperator) await pollStates.touch(updated.account_id, { add: { subs_version: 1 } });
      return updated;
    },
    async readings(list) {
      const found = await subReadings.getMany(
        list.map((s) => s.id),
        { consistent: true },
      );
      const out = new Map<number, SubReading>();
      for (const sub of list) {
        const kept = found.get(String(sub.id));
        // A sub-account read before issue 24 kept its reading on its own row (hidden fields).
        const legacy = sub as unknown as Partial<{
          cursor: string | null;
          recent_keys: string[];
          pending_sum_cents: number;
          pending_count: number;
        }>;
        if (kept) out.set(sub.id, kept);
        else if (legacy.cursor !== undefined)
          out.set(sub.id, {
            cursor: legacy.cursor ?? null,
            recent: legacy.recent_keys ?? [],
            pending_cents: legacy.pending_sum_cents ?? 0,
            pending_count: legacy.pending_count ?? 0,
          });
      }
      return out;
    },
    saveReading: async (subId, reading) => {
      await subReadings.put(subId, reading);
    },

    newCountBatch: () => new CounterBatch(),
    flushCounts: (batch) => batch.flush(),
    async recordStatement(data, notify, options = {}) {
      // Both ids first, named by the claim: a writer that finds the claim knows what the row and its
      // notification are (or are to be), so finishing a statement after a failure writes the same ones.
      const id = options.id ?? (await idFromBlock(statementEntity.type));
      const notificationId = notify ? await idFromBlock(bankNotificationEntity.type) : undefined;
      const also: Record<string, number> = notificationId === undefined ? {} : { notification: notificationId };
      // The notification's deliveries, when a channel is to push (the statement's own notify status
      // is Pending then), are a follow-up of the claim, recorded in the claim's write.
      const followUps =
        notificationId !== undefined && data.notify_status === NotifyStatus.values.Pending
          ? [deliverClaimed({ id: notificationId, at: Date.now() })]
          : [];
      // The key names its statement: a later writer of the same line finds it taken and stores nothing.
      const claimed = await claimWithFollowUps(STATEMENT_KEY.type, STATEMENT_KEY.field, data.key, id, also, followUps);
      if (!claimed) return completeClaimed(data, notify, options);
      let statement: StoredStatement;
      try {
        statement = await statements.create(data, { id, counts: options.batch });
      } catch (error) {
        // Given back only when the row was not written: a written one keeps its key for good.
        await releaseUnique(STATEMENT_KEY.type, STATEMENT_KEY.field, data.key, id);
        throw error;
      }
      if (!notify || notificationId === undefined) return { statement, fresh: true };
      const notification = await createNotificationOnce(notify(statement), notificationId, options.batch, true);
      if (claimed.recorded) {
        // The claim's follow-up, done here (the notification is written): sent, then cleared. A failed
        // send leaves it to the sweeper.
        try {
          await sendDeliveries(firstDeliveries(notification));
          await clearRecorded(uniqueKey(STATEMENT_KEY.type, STATEMENT_KEY.field, data.key), claimed.recorded);
        } catch (error) {
          logger.warn("a statement notification's deliveries were not sent; the sweeper sends them", {
            notification_id: notification.id,
            error: error as Error,
          });
        }
      }
      return { statement, notification, fresh: true };
    },
    statementIdOf: (key) => findUniqueOwner(STATEMENT_KEY.type, STATEMENT_KEY.field, key),
    async recordBalanceChange(change, followUps, options) {
      const ids = {
        stat: await idFromBlock(balanceStatEntity.type),
        notification: await idFromBlock(bankNotificationEntity.type),
      };
      try {
        const sub = await subs.update(
          change.sub_id,
          { available_balance: change.cur, last_refresh: change.at, reconciled_at: change.at },
          {
            expect: { available_balance: change.pre },
            followUps: followUps(ids),
            ...(options?.batch ? { followUpCounts: options.batch } : {}),
          },
        );
        return { sub, ids };
      } catch (error) {
        if (error instanceof ConditionFailedError) return undefined;
        throw error;
      }
    },
    async writeBalanceStat({ id, ...stat }, notification, counts) {
      // The stat's counts and its notification's share their group's items (entities.ts): one ADD
      // per item for both, after both rows, or with the poll's rows when it lends its batch.
      const own = counts ? undefined : new CounterBatch();
      const batch = (counts ?? own) as CountBatch;
      await createOnce(() => stats.create(stat, { id, counts: batch }));
      if (stat.notification_id !== undefined) await createNotificationOnce(notification, stat.notification_id, batch);
      await own?.flush();
    },
    async createNotification(data, options) {
      return createNotificationOnce(data, await idFromBlock(bankNotificationEntity.type), options?.batch);
    },
    listStatements: (query) => statements.list(query),
    listBalanceStats: (query) => stats.list(query),
    async latestUnreconciled() {
      const out = await stats.list({
        ...emptyListQuery({ page_size: 1 }),
        filters: { reconciled: { kind: 'boolean', value: false } },
      });
      return { stat: out.result[0], rcu: out.consumed_rcu };
    },

    getNotification: (id) => notifications.get(id),
    getNotifications: (ids) => notifications.getMany([...new Set(ids)]),
    updateNotification: (id, patch, expect, basis, followUps) =>
      notifications.update(id, patch, {
        ...(expect ? { expect } : {}),
        ...(basis ? { basis } : {}),
        ...(followUps?.length ? { followUps } : {}),
      }),
    listNotifications: (query) => notifications.list(query),
    failedNotifications: (accountId) =>
      notifications.all({
        scope: { notify_webhook: NotifyStatus.values.Failed, ...(accountId ? { account_id: accountId } : {}) },
      }),
    async setBusinessStatus(category, id, patch) {
      const { Statement, Balance } = BankNotificationCategory.values;
      if (category === Statement) await statements.update(id, patch);
      else if (category === Balance) await stats.update(id, patch);
    },
    async addHistory(row, id) {
      if (id === undefined) return history.create(row);
      try {
        return await history.create(row, { id });
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        return history.get(id);
      }
    },
    newHistoryId: () => idFromBlock(bankNotificationHistoryEntity.type),
    listHistory: (query) => history.list(query),
    historyOf: (notificationId) => history.all({ scope: { notification_id: notificationId } }),
    async webhookState(accountId) {
      return toState(await webhookHealth.get(accountId, { consistent: true }));
    },
    async recordFailure(accountId, now) {
      return toState(
        await webhookHealth.update(
          accountId,
          { add: { failures: 1 }, setIfAbsent: { failing_since: now } },
          { returnNew: true },
        ),
      );
    },
    async recordSuccess(accountId) {
      await webhookHealth.update(accountId, { set: { failures: 0 }, remove: ['failing_since'] });
    },
    async setPaused(accountId, pausedAt) {
      if (pausedAt === null) {
        await webhookHealth.update(accountId, { set: { failures: 0 }, remove: ['paused_at', 'failing_since'] });
        await pausedWebhooks.update('', { deleteFromSet: { ids: [accountId] } });
      } else {
        // Only if not paused yet: applied again (a follow-up), or after another delivery paused it
        // meanwhile, the first pause's instant stays (its notice is keyed by it).
        await webhookHealth.update(accountId, { setIfAbsent: { paused_at: pausedAt } });
        await pausedWebhooks.update('', { addToSet: { ids: [accountId] } });
      }
    },
    async pausedAccounts() {
      return ((await pausedWebhooks.get('', { consistent: false }))?.ids ?? []).map(Number).sort((a, b) => a - b);
    },
    async claimDelivery(statementId, notificationId, now) {
      const out = await deliveredStatements.take(statementId, {
        holder: String(notificationId),
        now,
        ms: DELIVERY_CLAIM_MS,
        // A delivery of the same notification sent again (a redelivered message) holds it already.
        reentrant: true,
      });
      if (out.taken) return { claimed: true };
      const owner = Number(out.record?.holder ?? out.record?.data.owner);
      return { claimed: false, ...(Number.isFinite(owner) ? { owner } : {}) };
    },
    async completeDelivery(statementId, notificationId) {
      await deliveredStatements.complete(statementId, String(notificationId));
    },
    async releaseDelivery(statementId, notificationId) {
      await deliveredStatements.abandon(statementId, String(notificationId));
    },

    async addDayFigures(day, accountId, figures) {
      const add = Object.fromEntries(Object.entries(figures).filter(([, v]) => typeof v === 'number' && v !== 0));
      if (Object.keys(add).length) await dayRollups.update(`${day}/${accountId}`, { add });
    },
    async dayFigures(day, fields) {
      const { records, rcu } = await dayRollups.allIn(day, fields);
      // allIn keys a record by the rest of its id (`${day}/${account}` less the day): the account id.
      return { figures: new Map([...records].map(([k, v]) => [Number(k), v])), rcu };
    },

    async setDayFigures(day, accountId, figures) {
      await dayRollups.update(`${day}/${accountId}`, { set: figures as Record<string, number> });
    },
    async keptRows() {
      const [kept, keptStats, keptNotifications] = await Promise.all([
        statements.all(),
        stats.all(),
        notifications.all(),
      ]);
      return { statements: kept, stats: keptStats, notifications: keptNotifications };
    },

    async takeDispatchWindow(holder, now, ms) {
      const out = await dispatchWindow.take('', { holder, now, ms });
      return { taken: out.taken, until: Number(out.record?.data.until ?? 0) };
    },
    advanceDispatchWindow: (holder, until) => dispatchWindow.release('', holder, { set: { until } }),
    async dispatchedUntil() {
      return Number((await dispatchWindow.read(''))?.data.until ?? 0);
    },
  };
  return store;
}

let current: BankStore | undefined;
/** The process-wide store: entry points pass it to the feature's functions. */
export function bankStore(): BankStore {
  current ??= dynamoBankStore();
  return current;
}

/** Points the bank feature at another store; undefined restores DynamoDB. */
export function useBankStore(next: BankStore | undefined): void {
  current = next;
}
