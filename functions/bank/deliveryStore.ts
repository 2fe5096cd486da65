// The delivery aggregate: bank notifications as their deliveries change them, their history rows,
// the webhook's health and pause, and the claim that delivers a statement once.
import { BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import type { NotifyStatusValue } from '../../shared/schemas/bank.js';
import { ConditionFailedError, type FollowUp, type ListOutcome } from '../lib/db/entity.js';
import { idFromBlock } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { transition } from '../lib/db/transition.js';
import {
  balanceStatEntity,
  bankNotificationEntity,
  bankNotificationHistoryEntity,
  deliveredStatements,
  pausedWebhooks,
  type StoredBalanceStat,
  type StoredBankNotification,
  type StoredHistory,
  type StoredStatement,
  statementEntity,
  type WebhookHealth,
  webhookHealth,
} from './entities.js';
import type { New } from './storeShapes.js';

/** The delivery health of an account's webhook, as delivery and the API see it. */
export interface WebhookStateRecord {
  paused_at: number | null;
  consecutive_failures: number;
  failing_since: number | null;
}

export interface DeliveryStore {
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
}

/** How long a delivery may hold a statement's claim before another may take it (the attempt's timeout, with room). */
const DELIVERY_CLAIM_MS = 5 * 60_000;

function toState(h: WebhookHealth | undefined): WebhookStateRecord {
  return {
    paused_at: h?.paused_at ?? null,
    consecutive_failures: h?.failures ?? 0,
    failing_since: h?.failing_since ?? null,
  };
}

export function dynamoDeliveryStore(
  notifications: DynamoRepository<StoredBankNotification> = createRepository(bankNotificationEntity),
  history: DynamoRepository<StoredHistory> = createRepository(bankNotificationHistoryEntity),
  statements: DynamoRepository<StoredStatement> = createRepository(statementEntity),
  stats: DynamoRepository<StoredBalanceStat> = createRepository(balanceStatEntity),
): DeliveryStore {
  return {
    getNotification: (id) => notifications.get(id),
    getNotifications: (ids) => notifications.getMany([...new Set(ids)]),
    updateNotification: (id, patch, expect, basis, followUps) =>
      transition(notifications, id, patch, {
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
  };
}
