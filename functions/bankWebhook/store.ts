import { UpdateCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { NotifyStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  type BankNotificationHistory,
  type NotifyStatusValue,
  bankNotificationHistoryListFields,
} from '../../shared/schemas/bank.js';
import type { WebhookState } from '../../shared/schemas/bankWebhook.js';
import { dynamoClient } from '../lib/aws/clients.js';
import { config } from '../lib/config.js';
import { defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { type CreateOptions, createRepository } from '../lib/db/repository.js';
import { nextId } from '../lib/db/ids.js';
import {
  balanceStatEntity,
  bankAccountEntity,
  bankNotificationEntity,
  statementEntity,
  type StoredBankAccount,
  type StoredBankNotification,
} from '../bank/store.js';

// Storage of webhook delivery, behind one port: the bank notifications' channel statuses (push and
// notify, channelStatus.ts), the statement / balance stat notify status, the push history (a row per
// attempt), the per-account delivery health (consecutive failures, pause) and the accounts found by
// API key.

export type StoredHistory = BankNotificationHistory;

export const bankNotificationHistoryEntity = defineEntity<StoredHistory>({
  type: 'bank_notification_history',
  fields: bankNotificationHistoryListFields,
  keys: ['notification_id', 'channel'],
});

export interface DeliveryStore {
  getNotification(id: number): Promise<StoredBankNotification | undefined>;
  getNotifications(ids: number[]): Promise<StoredBankNotification[]>;
  /**
   * `expect`: fields that must still hold these values (undefined: absent); else ConditionFailedError.
   * `basis`: the notification as last read, which spares the read that moving its slots takes
   * (UpdateOptions.basis); a stale one fails the write the same way.
   */
  updateNotification(
    id: number,
    patch: Partial<StoredBankNotification>,
    expect?: Partial<StoredBankNotification>,
    basis?: StoredBankNotification,
  ): Promise<StoredBankNotification>;
  listNotifications(query: ListQuery): Promise<ListOutcome<StoredBankNotification>>;
  /** Every notification whose webhook channel ended Failed, notify_webhook 9 (of one account when given). */
  failedNotifications(accountId?: number): Promise<StoredBankNotification[]>;
  /** The notify status of the statement (category 1) or balance stat (category 2) it is about. */
  setBusinessStatus(
    category: number,
    id: number,
    patch: { notify_status: NotifyStatusValue; notified_at: number | null },
  ): Promise<void>;
  /** An id for an attempt's row about to be written: allocated beside other work (addHistory's `id`). */
  newHistoryId(): Promise<number>;
  /** `alongside`: what follows from the attempt's row (the channel's status), run beside its counts. */
  addHistory(row: Omit<StoredHistory, 'id'>, options?: CreateOptions<StoredHistory>): Promise<StoredHistory>;
  listHistory(query: ListQuery): Promise<ListOutcome<StoredHistory>>;
  historyOf(notificationId: number): Promise<StoredHistory[]>;
  /** With the secrets' ciphertexts. */
  getAccount(id: number): Promise<StoredBankAccount | undefined>;
  accountsByKeyHash(hash: string): Promise<StoredBankAccount[]>;
  /** Sets the signing secret; with `onlyIfNone`, false when one was set meanwhile. */
  setWebhookSecret(id: number, enc: string, onlyIfNone: boolean): Promise<boolean>;
  webhookState(accountId: number): Promise<WebhookState>;
  /** One failed attempt: counts it (atomically) and returns the state after it. */
  recordFailure(accountId: number, now: number): Promise<WebhookState>;
  recordSuccess(accountId: number): Promise<void>;
  setPaused(accountId: number, pausedAt: number | null): Promise<void>;
}

const stateKey = (accountId: number) => ({ pk: `bank_webhook_state#${accountId}`, sk: 'state' });

function toState(accountId: number, item: Record<string, unknown> | undefined): WebhookState {
  return {
    account_id: accountId,
    paused: typeof item?.paused_at === 'number',
    paused_at: (item?.paused_at as number | undefined) ?? null,
    consecutive_failures: (item?.failures as number | undefined) ?? 0,
    failing_since: (item?.failing_since as number | undefined) ?? null,
  };
}

export function dynamoDeliveryStore(): DeliveryStore {
  const notifications = createRepository(bankNotificationEntity);
  const history = createRepository(bankNotificationHistoryEntity);
  const accounts = createRepository(bankAccountEntity);
  const statements = createRepository(statementEntity);
  const stats = createRepository(balanceStatEntity);
  const send = (cmd: UpdateCommand | GetCommand) => dynamoClient().send(cmd as never) as Promise<unknown>;
  return {
    getNotification: (id) => notifications.get(id),
    getNotifications: (ids) => notifications.getMany([...new Set(ids)]),
    updateNotification: (id, patch, expect, basis) =>
      notifications.update(id, patch, { ...(expect ? { expect } : {}), ...(basis ? { basis } : {}) }),
    listNotifications: (query) => notifications.list(query),
    failedNotifications: (accountId) =>
      notifications.all({
        scope: { notify_webhook: NotifyStatus.values.Failed, ...(accountId ? { account_id: accountId } : {}) },
      }),
    async setBusinessStatus(category, id, patch) {
      if (category === 1) await statements.update(id, patch);
      else if (category === 2) await stats.update(id, patch);
    },
    newHistoryId: () => nextId(bankNotificationHistoryEntity.type),
    addHistory: (row, options) => history.create(row, options),
    listHistory: (query) => history.list(query),
    historyOf: (notificationId) => history.all({ scope: { notification_id: notificationId } }),
    getAccount: (id) => accounts.getWithHidden(id),
    accountsByKeyHash: (hash) => accounts.allWithHidden({ scope: { api_key_hash: hash } }),
    async setWebhookSecret(id, enc, onlyIfNone) {
      try {
        await accounts.update(
          id,
          { webhook_secret_enc: enc },
          onlyIfNone ? { expect: { webhook_secret_enc: undefined } } : undefined,
        );
        return true;
      } catch (error) {
        if (onlyIfNone && (error as Error).name === 'ConditionFailedError') return false;
        throw error;
      }
    },
    async webhookState(accountId) {
      const out = await send(
        new GetCommand({ TableName: config.tableName, Key: stateKey(accountId), ConsistentRead: true }),
      );
      return toState(accountId, (out as { Item?: Record<string, unknown> }).Item);
    },
    async recordFailure(accountId, now) {
      const out = await send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: stateKey(accountId),
          UpdateExpression: 'ADD failures :one SET failing_since = if_not_exists(failing_since, :now)',
          ExpressionAttributeValues: { ':one': 1, ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toState(accountId, (out as { Attributes?: Record<string, unknown> }).Attributes);
    },
    async recordSuccess(accountId) {
      await send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: stateKey(accountId),
          UpdateExpression: 'SET failures = :zero REMOVE failing_since',
          ExpressionAttributeValues: { ':zero': 0 },
        }),
      );
    },
    async setPaused(accountId, pausedAt) {
      await send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: stateKey(accountId),
          ...(pausedAt === null
            ? {
                UpdateExpression: 'SET failures = :zero REMOVE paused_at, failing_since',
                ExpressionAttributeValues: { ':zero': 0 },
              }
            : { UpdateExpression: 'SET paused_at = :at', ExpressionAttributeValues: { ':at': pausedAt } }),
        }),
      );
    },
  };
}

let store: DeliveryStore | undefined;
export function deliveryStore(): DeliveryStore {
  store ??= dynamoDeliveryStore();
  return store;
}
