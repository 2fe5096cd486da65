import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import type { StoredOf } from '../../shared/listFields.js';
import { siteAccountListFields, siteListFields, siteTokenListFields } from '../../shared/schemas/sites.js';
import { ConditionFailedError, defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { nextId } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { claimUnique, releaseUnique, UniqueTakenError } from '../lib/db/unique.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { SiteAccountNotFoundError, SiteExistsError, SiteNotFoundError } from './errors.js';

// Stored shapes derive from the row declarations in shared/schemas/sites.ts; only what storage
// alone keeps is written here.

/** A site as stored: its accounts are rows of their own. */
export type SiteRecord = StoredOf<typeof siteListFields>;

/** A site account as stored: the password only as ciphertext, encrypted for this row and field. */
export type StoredSiteAccount = StoredOf<typeof siteAccountListFields, { pwd_enc: string }>;

/** A captured login session of an account; the token only as ciphertext. */
export type StoredSiteToken = StoredOf<typeof siteTokenListFields, { token_enc: string }>;

export type NewSiteRecord = Omit<SiteRecord, 'id' | 'created_at' | 'updated_at'>;
/** `id` from newAccountId(): secrets are encrypted for the row they go into, so the id comes first. */
export type NewSiteAccount = Pick<StoredSiteAccount, 'id' | 'user' | 'pwd_enc' | 'enable'>;
/** `id` from newTokenId(), likewise. */
export type NewSiteToken = Omit<StoredSiteToken, 'created_at'>;

/**
 * Where sites, their accounts and captured sessions live; the sites service depends on this
 * port, not on DynamoDB. Site names are unique case-insensitively ("Alpha" and "alpha" are the
 * same site to an operator). Soft-deleted sites and accounts are gone for every read but the
 * `includeDeleted` ones, which history screens use for names.
 */
export interface SiteStore {
  /**
   * Claims the name and writes the site with its accounts; when any write fails, what was
   * written is removed again, so no half site stays. Throws SiteExistsError.
   */
  createSite(
    site: NewSiteRecord,
    accounts: NewSiteAccount[],
  ): Promise<{ site: SiteRecord; accounts: StoredSiteAccount[] }>;
  getSite(id: number): Promise<SiteRecord | undefined>;
  getSites(ids: number[], options?: { includeDeleted?: boolean }): Promise<SiteRecord[]>;
  listSites(query: ListQuery): Promise<ListOutcome<SiteRecord>>;
  /** Every live site, in creation order. */
  allSites(): Promise<SiteRecord[]>;
  /** Moves the name claim to the new name. Throws SiteExistsError, SiteNotFoundError. */
  renameSite(id: number, name: string): Promise<SiteRecord>;
  /** Throws SiteNotFoundError. */
  updateSite(
    id: number,
    patch: Partial<Pick<SiteRecord, 'url' | 'enable' | 'control' | 'available_account_cnt'>>,
  ): Promise<SiteRecord>;
  /** Atomic move of the valid-account counter. Throws SiteNotFoundError. */
  addAvailableAccounts(id: number, delta: number): Promise<SiteRecord>;
  /** Soft-deletes the site and its accounts and frees the name. Throws SiteNotFoundError. */
  deleteSite(id: number): Promise<void>;

  /** An id for an account written later (its password is encrypted for it first). */
  newAccountId(): Promise<number>;
  /** An id for a session token written later, likewise. */
  newTokenId(): Promise<number>;
  addAccounts(siteId: number, accounts: NewSiteAccount[]): Promise<StoredSiteAccount[]>;
  getAccount(id: number): Promise<StoredSiteAccount | undefined>;
  getAccounts(ids: number[], options?: { includeDeleted?: boolean }): Promise<StoredSiteAccount[]>;
  /** The live accounts of a site, in creation order. */
  accountsOf(siteId: number): Promise<StoredSiteAccount[]>;
  /** The same, as a list answer: its read units count in the list call that shows them. */
  listAccountsOf(siteId: number): Promise<ListOutcome<StoredSiteAccount>>;
  listAccounts(query: ListQuery): Promise<ListOutcome<StoredSiteAccount>>;
  /** Throws SiteAccountNotFoundError. */
  updateAccount(id: number, patch: Partial<Pick<StoredSiteAccount, 'user' | 'pwd_enc'>>): Promise<StoredSiteAccount>;
  /**
   * Sets the enabled flag only if it still has the value the caller read; `changed` is false
   * when another writer flipped it first, so exactly one of racing toggles counts.
   * Throws SiteAccountNotFoundError.
   */
  setAccountEnable(id: number, enable: boolean): Promise<{ account: StoredSiteAccount; changed: boolean }>;

  createToken(token: NewSiteToken): Promise<StoredSiteToken>;
  getToken(id: number): Promise<StoredSiteToken | undefined>;
  listTokens(query: ListQuery): Promise<ListOutcome<StoredSiteToken>>;
}

export const siteEntity = defineEntity<SiteRecord>({
  type: 'site',
  fields: siteListFields,
  keys: ['enable'],
  softDelete: true,
});

export const siteAccountEntity = defineEntity<StoredSiteAccount>({
  type: 'site_account',
  fields: siteAccountListFields,
  keys: ['site_id', 'enable'],
  softDelete: true,
});

export const siteTokenEntity = defineEntity<StoredSiteToken>({
  type: 'site_token',
  fields: siteTokenListFields,
  keys: ['account_id', 'site_id'],
});

const nameKey = (name: string) => name.trim().toLowerCase();

export function dynamoSiteStore(
  sites: DynamoRepository<SiteRecord> = createRepository(siteEntity),
  accounts: DynamoRepository<StoredSiteAccount> = createRepository(siteAccountEntity),
  tokens: DynamoRepository<StoredSiteToken> = createRepository(siteTokenEntity),
): SiteStore {
  async function claimName(name: string, siteId: number): Promise<void> {
    try {
      await claimUnique(siteEntity.type, 'name', nameKey(name), siteId);
    } catch (error) {
      if (error instanceof UniqueTakenError) throw new SiteExistsError(name);
      throw error;
    }
  }
  const releaseName = (name: string, siteId: number) => releaseUnique(siteEntity.type, 'name', nameKey(name), siteId);

  // A failed condition on an update means the row is gone or soft-deleted.
  const onSite = <R>(id: number, write: Promise<R>) => onConditionFailure(write, () => new SiteNotFoundError(id));
  const onAccount = <R>(id: number, write: Promise<R>) =>
    onConditionFailure(write, () => new SiteAccountNotFoundError(id));

  async function writeAccounts(siteId: number, list: NewSiteAccount[], written: StoredSiteAccount[]) {
    for (const { id, ...a } of list) written.push(await accounts.create({ site_id: siteId, ...a }, { id }));
    return written;
  }

  return {
    async createSite(data, list) {
      // The id comes first so that the name claim names its owner before the row exists.
      const siteId = await nextId(siteEntity.type);
      await claimName(data.name, siteId);
      let site: SiteRecord | undefined;
      const written: StoredSiteAccount[] = [];
      try {
        site = await sites.create(data, { id: siteId });
        await writeAccounts(siteId, list, written);
        return { site, accounts: written };
      } catch (error) {
        await Promise.allSettled([
          ...written.map((a) => accounts.remove(a.id)),
          site ? sites.remove(siteId) : undefined,
          releaseName(data.name, siteId),
        ]);
        throw error;
      }
    },

    getSite: (id) => sites.get(id),
    getSites: (ids, options) => sites.getMany([...new Set(ids)], options),
    listSites: (query) => sites.list(query),
    allSites: () => sites.all(),

    async renameSite(id, name) {
      const site = await sites.get(id);
      if (!site) throw new SiteNotFoundError(id);
      if (nameKey(name) === nameKey(site.name)) return onSite(id, sites.update(id, { name }));
      await claimName(name, id);
      try {
        // Conditional on the name read, so two renames cannot both free the old claim.
        const updated = await onSite(id, sites.update(id, { name }, { expect: { name: site.name } }));
        await releaseName(site.name, id);
        return updated;
      } catch (error) {
        await releaseName(name, id);
        throw error;
      }
    },

    updateSite: (id, patch) => onSite(id, sites.update(id, patch)),
    addAvailableAccounts: (id, delta) => onSite(id, sites.add(id, { available_account_cnt: delta })),

    async deleteSite(id) {
      const site = await sites.get(id);
      if (!site) throw new SiteNotFoundError(id);
      const list = await accounts.all({ scope: { site_id: id } });
      await onSite(id, sites.softDelete(id));
      await Promise.all(list.map((a) => accounts.softDelete(a.id)));
      await releaseName(site.name, id);
    },

    addAccounts: (siteId, list) => writeAccounts(siteId, list, []),
    getAccount: (id) => accounts.get(id),
    getAccounts: (ids, options) => accounts.getMany([...new Set(ids)], options),
    accountsOf: (siteId) => accounts.all({ scope: { site_id: siteId } }),
    listAccountsOf: (siteId) => accounts.list(emptyListQuery({ page_size: 0 }), { scope: { site_id: siteId } }),
    listAccounts: (query) => accounts.list(query),
    updateAccount: (id, patch) => onAccount(id, accounts.update(id, patch)),

    async setAccountEnable(id, enable) {
      // Conditional on the flag read: of racing toggles to one value, one write flips it.
      for (let attempt = 0; attempt < 3; attempt++) {
        const account = await accounts.get(id);
        if (!account) throw new SiteAccountNotFoundError(id);
        if (account.enable === enable) return { account, changed: false };
        try {
          const updated = await accounts.update(id, { enable }, { expect: { enable: account.enable } });
          return { account: updated, changed: true };
        } catch (error) {
          if (!(error instanceof ConditionFailedError)) throw error;
        }
      }
      throw new Error(`Site account ${id} kept changing while setting enable`);
    },

    newAccountId: () => nextId(siteAccountEntity.type),
    newTokenId: () => nextId(siteTokenEntity.type),
    createToken: ({ id, ...token }) => tokens.create(token, { id }),
    getToken: (id) => tokens.get(id),
    listTokens: (query) => tokens.list(query),
  };
}

let store: SiteStore | undefined;
/** The process-wide store. */
export function siteStore(): SiteStore {
  store ??= dynamoSiteStore();
  return store;
}

/** Points the sites service at another store (tests use an in-memory one); undefined restores DynamoDB. */
export function useSiteStore(next: SiteStore | undefined): void {
  store = next;
}
