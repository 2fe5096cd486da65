import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import {
  type BalanceStat,
  type BankAccount,
  type BankNotification,
  balanceStatListFields,
  bankAccountListFields,
  bankNotificationListFields,
  type Statement,
  type SubAccount,
  statementListFields,
  subAccountListFields,
} from '../../shared/schemas/bank.js';
import { dynamoClient } from '../lib/aws/clients.js';
import { config } from '../lib/config.js';
import { ConditionFailedError, defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { nextId } from '../lib/db/ids.js';
import {
  type CreateOptions,
  createRepository,
  type DynamoRepository,
  isConditionFailure,
} from '../lib/db/repository.js';
import { claimIfFree, claimUnique, releaseUnique, UniqueTakenError } from '../lib/db/unique.js';
import { onConditionFailure } from '../lib/onConditionFailure.js';
import { BankAccountExistsError, BankAccountNotFoundError, SubAccountNotFoundError } from './errors.js';

/** A bank account as stored: secrets only as ciphertexts, plus the poller's lease and session. */
export interface StoredBankAccount extends Omit<BankAccount, 'pwd' | 'api_key' | 'updated_at'> {
  updated_at?: number;
  pwd_enc: string;
  api_key_enc: string | null;
  /** The portal session kept between polls (JSON of BankSession), encrypted: it is a credential. */
  session_enc?: string;
  /** Who holds the lease, and until when (ms); absent when free. */
  lease_token?: string;
  lease_until?: number;
  /** When the account was last enabled (ms): staleness counts from here at the earliest. */
  enabled_at: number;
  /** Whether an API key is stored (the ciphertext itself is hidden from lists). */
  has_api_key: boolean;
  /** SHA-256 of the API key (functions/bankWebhook/apiKeyHash.ts): the inbound webhook finds the account by it. */
  api_key_hash?: string;
  /** The Standard Webhooks signing secret (`whsec_...`), encrypted; made at the first delivery or reveal. */
  webhook_secret_enc?: string;
}

export interface StoredSubAccount extends Omit<SubAccount, 'account' | 'updated_at'> {
  updated_at?: number;
  /** Statement cursor the driver gave last (opaque). */
  cursor: string | null;
  /** Keys of the newest statements seen: a poll re-reading them costs no write. */
  recent_keys: string[];
  /** Signed sum (minor units) and count of statements stored since the last balance change. */
  pending_sum_cents: number;
  pending_count: number;
}

export interface StoredStatement extends Omit<Statement, 'sub_account'> {
  sub_no: string;
  key: string;
  send_date: string;
  send_time: string;
}

export interface StoredBalanceStat extends Omit<BalanceStat, 'sub_account'> {
  sub_no: string;
}

export interface StoredBankNotification extends Omit<BankNotification, 'account' | 'sub'> {
  /** Stamped by every write (the repository): when a channel last moved. */
  updated_at?: number;
  bank_name: 1 | 2;
  account_user: string;
  sub_no: string | null;
}

export const bankAccountEntity = defineEntity<StoredBankAccount>({
  type: 'bank_account',
  fields: bankAccountListFields,
  keys: ['status', 'bank_name', 'stale', 'api_key_hash'],
  hidden: ['pwd_enc', 'api_key_enc', 'session_enc', 'lease_token', 'api_key_hash', 'webhook_secret_enc'],
});

export const subAccountEntity = defineEntity<StoredSubAccount>({
  type: 'bank_sub_account',
  fields: subAccountListFields,
  keys: ['account_id', 'status', 'bank_name'],
  hidden: ['cursor', 'recent_keys', 'pending_sum_cents', 'pending_count'],
});

export const statementEntity = defineEntity<StoredStatement>({
  type: 'bank_statement',
  fields: statementListFields,
  keys: ['sub_account_id', 'account_id', 'bank_name'],
  hidden: ['key'],
  // The largest tables of the product: day buckets, so no partition takes the type's writes.
  partitioning: { bucket: 'day' },
});

export const balanceStatEntity = defineEntity<StoredBalanceStat>({
  type: 'bank_balance_stat',
  fields: balanceStatListFields,
  keys: ['sub_account_id', 'account_id', 'bank_name', 'reconciled'],
  // The largest tables of the product: day buckets, so no partition takes the type's writes.
  partitioning: { bucket: 'day' },
});

export const bankNotificationEntity = defineEntity<StoredBankNotification>({
  type: 'bank_notification',
  fields: bankNotificationListFields,
  // notify_webhook: Replay Failed reads the Failed ones by key; an operator filters them the same way.
  keys: ['account_id', 'sub_account_id', 'category', 'status_tg', 'status_webhook', 'notify_webhook'],
  // The largest tables of the product: day buckets, so no partition takes the type's writes.
  partitioning: { bucket: 'day' },
});

type New<T> = Omit<T, 'id' | 'created_at'> & { created_at?: number };

/**
 * Where bank accounts, sub-accounts, statements, balance stats and bank notifications live; the
 * bank service and the poller depend on this port. An account is unique per bank and user; a
 * sub-account per account and number; a statement per key (statementKey.ts).
 */
export interface BankStore {
  /** Throws BankAccountExistsError. `id` from newAccountId() (secrets are encrypted for it first). */
  createAccount(account: New<StoredBankAccount> & { id: number }): Promise<StoredBankAccount>;
  newAccountId(): Promise<number>;
  getAccount(id: number): Promise<StoredBankAccount | undefined>;
  /** With the ciphertexts and the lease (the poller and the reveal). */
  getAccountWithSecrets(id: number): Promise<StoredBankAccount | undefined>;
  getAccounts(ids: number[]): Promise<StoredBankAccount[]>;
  listAccounts(query: ListQuery): Promise<ListOutcome<StoredBankAccount>>;
  /** Every account with status 1, with the lease fields (the dispatcher's read). */
  enabledAccounts(): Promise<StoredBankAccount[]>;
  /** Throws BankAccountNotFoundError; BankAccountExistsError when a new user is taken. `expect` as the repository's. */
  updateAccount(
    id: number,
    patch: Partial<StoredBankAccount>,
    expect?: Record<string, unknown>,
  ): Promise<StoredBankAccount>;

  /**
   * Takes the account's poll lease: one conditional write that succeeds when no lease is held, or
   * (a second write, conditional on the old holder) when the held one has passed its expiry.
   * Returns the account with its secrets, or undefined when someone else holds a live lease.
   */
  takeLease(id: number, token: string, now: number, until: number): Promise<StoredBankAccount | undefined>;
  /** Frees the lease if `token` still holds it, writing `patch` with it; false when it was lost. */
  releaseLease(id: number, token: string, patch?: Partial<StoredBankAccount>): Promise<boolean>;

  subsOf(accountId: number): Promise<StoredSubAccount[]>;
  getSub(id: number): Promise<StoredSubAccount | undefined>;
  getSubs(ids: number[]): Promise<StoredSubAccount[]>;
  listSubs(query: ListQuery): Promise<ListOutcome<StoredSubAccount>>;
  /** A new sub-account; undefined when the account already has this number. */
  createSub(sub: New<StoredSubAccount>): Promise<StoredSubAccount | undefined>;
  /** Throws SubAccountNotFoundError. */
  updateSub(id: number, patch: Partial<StoredSubAccount>): Promise<StoredSubAccount>;

  /**
   * Stores a statement once per key: undefined when its key was stored before (by any writer).
   * `alongside`: what follows from a stored statement (its notification), run beside its counts.
   */
  createStatement(
    statement: New<StoredStatement>,
    alongside?: (stored: StoredStatement) => Promise<unknown>,
    id?: number,
  ): Promise<StoredStatement | undefined>;
  /** An id for a statement about to be stored: allocated beside other work (createStatement's `id`). */
  newStatementId(): Promise<number>;
  listStatements(query: ListQuery): Promise<ListOutcome<StoredStatement>>;
  createBalanceStat(stat: New<StoredBalanceStat>): Promise<StoredBalanceStat>;
  listBalanceStats(query: ListQuery): Promise<ListOutcome<StoredBalanceStat>>;
  /** An id for a notification about to be written: allocated beside other work (create's `id`). */
  newNotificationId(): Promise<number>;
  /** `alongside`: what needs the notification stored (its delivery queued), run beside its counts. */
  createNotification(
    n: New<StoredBankNotification>,
    options?: CreateOptions<StoredBankNotification>,
  ): Promise<StoredBankNotification>;
  listNotifications(query: ListQuery): Promise<ListOutcome<StoredBankNotification>>;

  /** The end of the last dispatched window (ms), 0 before the first. */
  dispatchedUntil(): Promise<number>;
  /** Moves it from `from` to `to`; false when another dispatcher moved it first. */
  advanceDispatch(from: number, to: number): Promise<boolean>;
}

const accountKey = (bank: number, user: string) => `${bank}#${user}`;
const subKey = (accountId: number, no: string) => `${accountId}#${no}`;
const DISPATCH_KEY = { pk: 'bank_dispatch', sk: 'state' };

export function dynamoBankStore(
  accounts: DynamoRepository<StoredBankAccount> = createRepository(bankAccountEntity),
  subs: DynamoRepository<StoredSubAccount> = createRepository(subAccountEntity),
  statements: DynamoRepository<StoredStatement> = createRepository(statementEntity),
  stats: DynamoRepository<StoredBalanceStat> = createRepository(balanceStatEntity),
  notifications: DynamoRepository<StoredBankNotification> = createRepository(bankNotificationEntity),
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

  return {
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
    enabledAccounts: () => accounts.allWithHidden({ scope: { status: 1 } }),

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

    async takeLease(id, token, now, until) {
      const lease = { processing: true, lease_token: token, lease_until: until };
      try {
        await accounts.update(id, lease, { expect: { processing: false } });
        return await accounts.getWithHidden(id);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
      const held = await accounts.getWithHidden(id);
      if (!held) return undefined;
      // A lease past its expiry belongs to a poller that died: taken over, conditional on that
      // holder, so of two pollers finding it expired one wins.
      const expired = held.processing && (held.lease_until ?? 0) <= now;
      if (!expired && held.processing) return undefined;
      try {
        await accounts.update(id, lease, {
          expect: held.processing ? { lease_token: held.lease_token } : { processing: false },
        });
        return await accounts.getWithHidden(id);
      } catch (error) {
        if (error instanceof ConditionFailedError) return undefined;
        throw error;
      }
    },

    async releaseLease(id, token, patch = {}) {
      try {
        await accounts.update(
          id,
          { ...patch, processing: false, lease_token: undefined, lease_until: undefined },
          { expect: { lease_token: token } },
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
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
    updateSub: (id, patch) => onConditionFailure(subs.update(id, patch), () => new SubAccountNotFoundError(id)),

    newStatementId: () => nextId(statementEntity.type),
    async createStatement(data, alongside, given) {
      const id = given ?? (await nextId(statementEntity.type));
      if (!(await claimIfFree(statementEntity.type, 'key', data.key, id))) return undefined;
      // The key is given back only when the row was not written: once it is, a failure after it
      // (its counts, its notification) must not let the same statement be stored twice.
      let stored = false;
      const afterPut = async (row: StoredStatement) => {
        stored = true;
        await alongside?.(row);
      };
      try {
        return await statements.create(data, { id, alongside: afterPut });
      } catch (error) {
        if (!stored) await releaseUnique(statementEntity.type, 'key', data.key, id);
        throw error;
      }
    },
    listStatements: (query) => statements.list(query),
    createBalanceStat: (data) => stats.create(data),
    listBalanceStats: (query) => stats.list(query),
    newNotificationId: () => nextId(bankNotificationEntity.type),
    createNotification: (data, options) => notifications.create(data, options),
    listNotifications: (query) => notifications.list(query),

    async dispatchedUntil() {
      const out = await dynamoClient().send(
        new GetCommand({ TableName: config.tableName, Key: DISPATCH_KEY, ConsistentRead: true }),
      );
      return (out.Item?.until as number | undefined) ?? 0;
    },
    async advanceDispatch(from, to) {
      try {
        await dynamoClient().send(
          new UpdateCommand({
            TableName: config.tableName,
            Key: DISPATCH_KEY,
            UpdateExpression: 'SET #until = :to',
            ConditionExpression: from === 0 ? 'attribute_not_exists(#until)' : '#until = :from',
            ExpressionAttributeNames: { '#until': 'until' },
            ExpressionAttributeValues: from === 0 ? { ':to': to } : { ':to': to, ':from': from },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}

/** The sub-accounts of an account as a list answer (its read units count in the call). */
export const allRows = () => emptyListQuery({ page_size: 0 });

let store: BankStore | undefined;
/** The process-wide store. */
export function bankStore(): BankStore {
  store ??= dynamoBankStore();
  return store;
}

/** Points the bank feature at another store; undefined restores DynamoDB. */
export function useBankStore(next: BankStore | undefined): void {
  store = next;
}
