// The statement aggregate: statements (one per key, statementKey.ts), balance stats and the bank
// notifications they raise, each written once under ids chosen before, their counts moved together.
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import { NotifyStatus } from '../../shared/enums.js';
import { CounterBatch } from '../lib/db/counters.js';
import type { FollowUp, ListOutcome } from '../lib/db/entity.js';
import { idFromBlock } from '../lib/db/ids.js';
import { applyPendingOf, clearRecorded } from '../lib/db/outbox.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { claimWithFollowUps, findUniqueClaim, findUniqueOwner, releaseUnique, uniqueKey } from '../lib/db/unique.js';
import { logger } from '../lib/logger.js';
import { deliveriesOf, firstDeliveries, sendDeliveries } from './deliveryMessages.js';
import {
  balanceStatEntity,
  bankNotificationEntity,
  type StoredBalanceStat,
  type StoredBankNotification,
  type StoredStatement,
  statementEntity,
} from './entities.js';
import type { CountBatch, New } from './storeShapes.js';

export interface StatementStore {
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

  /** Every statement, balance stat and bank notification still kept (the rollups' repair reads them all). */
  keptRows(): Promise<{
    statements: StoredStatement[];
    stats: StoredBalanceStat[];
    notifications: StoredBankNotification[];
  }>;
}

/** A claimed statement key's owner: the statement's id. */
const STATEMENT_KEY = { type: statementEntity.type, field: 'key' } as const;

export function dynamoStatementStore(
  /** The claim's follow-up that sends a claimed notification's first deliveries (store.ts deliverClaimed). */
  deliverClaimed: (n: { id: number; at: number }) => FollowUp,
  statements: DynamoRepository<StoredStatement> = createRepository(statementEntity),
  stats: DynamoRepository<StoredBalanceStat> = createRepository(balanceStatEntity),
  notifications: DynamoRepository<StoredBankNotification> = createRepository(bankNotificationEntity),
): StatementStore {
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
    return (await notifications.createOnce(data, id, { counts: batch, followUps })).row;
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
      const once = await statements.createOnce(data, claim.owner, { counts: options.batch });
      statement = once.row;
      fresh = once.created;
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

  return {
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
    async writeBalanceStat({ id, ...stat }, notification, counts) {
      // The stat's counts and its notification's share their group's items (entities.ts): one ADD
      // per item for both, after both rows, or with the poll's rows when it lends its batch.
      const own = counts ? undefined : new CounterBatch();
      const batch = (counts ?? own) as CountBatch;
      await stats.createOnce(stat, id, { counts: batch });
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

    async keptRows() {
      const [kept, keptStats, keptNotifications] = await Promise.all([
        statements.all(),
        stats.all(),
        notifications.all(),
      ]);
      return { statements: kept, stats: keptStats, notifications: keptNotifications };
    },
  };
}
