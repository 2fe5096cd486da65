import { applyListQuery } from '../../shared/applyListQuery.js';
import { SiteAccountNotFoundError, SiteExistsError, SiteNotFoundError } from './errors.js';
import type { SiteRecord, SiteStore, StoredSiteAccount, StoredSiteToken } from './store.js';

type Live<T> = T & { deleted?: boolean };

/**
 * The SiteStore port held in memory, for service tests that need no engine. It keeps the
 * contract of the DynamoDB adapter: unique names case-insensitively, soft deletes hidden from
 * every read but `includeDeleted`, the feature's own errors for missing rows.
 */
export function memorySiteStore(): SiteStore {
  let lastId = 0;
  let clock = 0;
  // Strictly increasing times keep creation order observable in lists sorted by created_at.
  const now = () => {
    clock = Math.max(Date.now(), clock + 1);
    return clock;
  };
  const sites = new Map<number, Live<SiteRecord>>();
  const accounts = new Map<number, Live<StoredSiteAccount>>();
  const tokens = new Map<number, StoredSiteToken>();
  const names = new Map<string, number>();
  const nameKey = (name: string) => name.trim().toLowerCase();

  const live = <T>(row: Live<T> | undefined): T | undefined => (row && !row.deleted ? strip(row) : undefined);
  const strip = <T>({ deleted: _d, ...row }: Live<T>): T => structuredClone(row) as T;
  const pick = <T>(map: Map<number, Live<T>>, ids: number[], includeDeleted?: boolean): T[] =>
    [...new Set(ids)].flatMap((id) => {
      const row = map.get(id);
      return row && (includeDeleted || !row.deleted) ? [strip(row)] : [];
    });
  const liveRows = <T>(map: Map<number, Live<T>>): T[] => [...map.values()].filter((r) => !r.deleted).map(strip);

  function claim(name: string, id: number): void {
    const owner = names.get(nameKey(name));
    if (owner !== undefined && owner !== id) throw new SiteExistsError(name);
    names.set(nameKey(name), id);
  }
  function siteOrThrow(id: number): Live<SiteRecord> {
    const site = sites.get(id);
    if (!site || site.deleted) throw new SiteNotFoundError(id);
    return site;
  }
  function accountOrThrow(id: number): Live<StoredSiteAccount> {
    const account = accounts.get(id);
    if (!account || account.deleted) throw new SiteAccountNotFoundError(id);
    return account;
  }
  function writeAccounts(siteId: number, list: Parameters<SiteStore['addAccounts']>[1]): StoredSiteAccount[] {
    return list.map((a) => {
      const row = { site_id: siteId, ...a, created_at: now() };
      accounts.set(row.id, row);
      return structuredClone(row);
    });
  }

  return {
    async createSite(data, list) {
      const id = ++lastId;
      claim(data.name, id);
      const site = { ...data, id, created_at: now(), updated_at: now() };
      sites.set(id, site);
      return { site: structuredClone(site), accounts: writeAccounts(id, list) };
    },
    getSite: async (id) => live(sites.get(id)),
    getSites: async (ids, options) => pick(sites, ids, options?.includeDeleted),
    listSites: async (query) => ({ ...applyListQuery(liveRows(sites), query), consumed_rcu: 0 }),
    allSites: async () => liveRows(sites),
    async renameSite(id, name) {
      const site = siteOrThrow(id);
      const old = site.name;
      claim(name, id);
      if (nameKey(old) !== nameKey(name)) names.delete(nameKey(old));
      Object.assign(site, { name, updated_at: now() });
      return strip(site);
    },
    async updateSite(id, patch) {
      return strip(Object.assign(siteOrThrow(id), patch, { updated_at: now() }));
    },
    async addAvailableAccounts(id, delta) {
      const site = siteOrThrow(id);
      site.available_account_cnt += delta;
      return strip(site);
    },
    async deleteSite(id) {
      const site = siteOrThrow(id);
      site.deleted = true;
      for (const a of accounts.values()) if (a.site_id === id) a.deleted = true;
      names.delete(nameKey(site.name));
    },

    addAccounts: async (siteId, list) => writeAccounts(siteId, list),
    getAccount: async (id) => live(accounts.get(id)),
    getAccounts: async (ids, options) => pick(accounts, ids, options?.includeDeleted),
    accountsOf: async (siteId) => liveRows(accounts).filter((a) => a.site_id === siteId),
    listAccountsOf: async (siteId) => {
      const rows = liveRows(accounts).filter((a) => a.site_id === siteId);
      return { result: rows, total_count: rows.length, page: 1, page_size: 0, consumed_rcu: 0 };
    },
    listAccounts: async (query) => ({ ...applyListQuery(liveRows(accounts), query), consumed_rcu: 0 }),
    async updateAccount(id, patch) {
      return strip(Object.assign(accountOrThrow(id), patch));
    },
    async setAccountEnable(id, enable) {
      const account = accountOrThrow(id);
      const changed = account.enable !== enable;
      account.enable = enable;
      return { account: strip(account), changed };
    },

    newAccountId: async () => ++lastId,
    newTokenId: async () => ++lastId,
    async createToken(token) {
      const row = { ...token, created_at: now() };
      tokens.set(row.id, row);
      return structuredClone(row);
    },
    getToken: async (id) => live(tokens.get(id)),
    listTokens: async (query) => ({ ...applyListQuery([...tokens.values()], query), consumed_rcu: 0 }),
  };
}
