// The bank feature's one port, composed of a store per aggregate: accounts (accountStore.ts),
// sub-accounts (subAccountStore.ts), statements with their stats and notifications
// (statementStore.ts) and delivery (deliveryStore.ts). Callers take the whole port as a dependency
// (passed in by their entry points), as Powertools' idempotency takes its persistence store.
import { logger } from '../lib/logger.js';
import { defineFollowUp } from '../lib/db/outbox.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { type BankAccountStore, dynamoBankAccountStore } from './accountStore.js';
import { firstDeliveries, sendDeliveries } from './deliveryMessages.js';
import { type DeliveryStore, dynamoDeliveryStore } from './deliveryStore.js';
import {
  balanceStatEntity,
  bankAccountEntity,
  bankNotificationEntity,
  bankNotificationHistoryEntity,
  type StoredBalanceStat,
  type StoredBankAccount,
  type StoredBankNotification,
  type StoredHistory,
  type StoredStatement,
  type StoredSubAccount,
  statementEntity,
  subAccountEntity,
} from './entities.js';
import { dynamoStatementStore, type StatementStore } from './statementStore.js';
import { dynamoSubAccountStore, type SubAccountStore } from './subAccountStore.js';

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
export type { WebhookStateRecord } from './deliveryStore.js';
export type { CountBatch } from './storeShapes.js';
export type { BankAccountStore, DeliveryStore, StatementStore, SubAccountStore };

/**
 * Every stored shape of the bank feature (entities.ts): accounts, sub-accounts, statements, balance
 * stats, bank notifications and their delivery history, and the small records beside them (the poll
 * state and lease, reading positions, rollups, the webhook's health, the claims). The poller, the
 * inbound webhook and the delivery all reach them through it. An account is unique per bank and
 * user; a sub-account per account and number; a statement per key (statementKey.ts).
 */
export type BankStore = BankAccountStore & SubAccountStore & StatementStore & DeliveryStore;

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
  return {
    ...dynamoBankAccountStore(accounts),
    ...dynamoSubAccountStore(subs),
    ...dynamoStatementStore(deliverClaimed, statements, stats, notifications),
    ...dynamoDeliveryStore(notifications, history, statements, stats),
  };
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
