// The bank account aggregate: the account row (unique per bank and user), its poll state and lease,
// its day figures, and the dispatcher's window over all accounts (bankStore.ts composes the ports).
import { BankAccountStatus } from '../../shared/enums.js';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import type { BankAccountStatusValue } from '../../shared/schemas/bank.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { readCounter } from '../lib/db/counters.js';
import { ConditionFailedError, type FollowUp, type ListOutcome } from '../lib/db/entity.js';
import { nextId } from '../lib/db/ids.js';
import type { RecordChange } from '../lib/db/keyedRecords.js';
import { parentKey } from '../lib/db/keys.js';
import type { LeaseRecord, LeaseTake } from '../lib/db/lease.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { transition } from '../lib/db/transition.js';
import { claimUnique, releaseUnique, UniqueTakenError } from '../lib/db/unique.js';
import {
  bankAccountEntity,
  type DayFigures,
  dayRollups,
  dispatchWindow,
  type PollStateData,
  pollStates,
  type StoredBankAccount,
} from './entities.js';
import { BankAccountExistsError, BankAccountNotFoundError } from './errors.js';
import type { New } from './storeShapes.js';

export interface BankAccountStore {
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
  /**
   * updateAccount with follow-ups recorded in the same write and applied once in effect (the bank
   * incidents a status, stale or rule transition opens or resolves, incidents.ts). No user change.
   */
  transitionAccount(
    id: number,
    patch: Partial<StoredBankAccount>,
    options: { expect?: Record<string, unknown>; followUps: FollowUp[] },
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

  // ---- Rollups ----
  /** Adds to an account's figures of a day (deliveries, the days a poll rolls over). */
  addDayFigures(day: string, accountId: number, figures: DayFigures): Promise<void>;
  dayFigures(
    day: string,
    fields?: readonly (keyof DayFigures)[],
  ): Promise<{ figures: Map<number, DayFigures>; rcu: number }>;
  /** Sets an account's figures of a day as counted again from the rows (the rollups' repair). */
  setDayFigures(day: string, accountId: number, figures: DayFigures): Promise<void>;
  // ---- The dispatcher's window ----
  /** Takes the window's lease: the end of the last window sent, or taken: false while another dispatcher works. */
  takeDispatchWindow(holder: string, now: number, ms: number): Promise<{ taken: boolean; until: number }>;
  /** Moves the end of the window (and frees the lease); false when the lease was lost meanwhile. */
  advanceDispatchWindow(holder: string, until: number): Promise<boolean>;
  /** The end of the last window sent (ms), 0 before the first. */
  dispatchedUntil(): Promise<number>;
}

const accountKey = (bank: number, user: string) => `${bank}#${user}`;

export function dynamoBankAccountStore(
  accounts: DynamoRepository<StoredBankAccount> = createRepository(bankAccountEntity),
): BankAccountStore {
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
    transitionAccount: (id, patch, { expect, followUps }) =>
      onAccount(id, transition(accounts, id, patch, { ...(expect ? { expect } : {}), followUps })),
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
    async takeDispatchWindow(holder, now, ms) {
      const out = await dispatchWindow.take('', { holder, now, ms });
      return { taken: out.taken, until: Number(out.record?.data.until ?? 0) };
    },
    advanceDispatchWindow: (holder, until) => dispatchWindow.release('', holder, { set: { until } }),
    async dispatchedUntil() {
      return Number((await dispatchWindow.read(''))?.data.until ?? 0);
    },
  };
}
