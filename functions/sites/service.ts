import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import type {
  AddAccountsBody,
  NewAccount,
  NewSiteBody,
  Site,
  SiteAccount,
  SiteAccountToken,
  UpdateAccountBody,
  UpdateSiteBody,
} from '../../shared/schemas/sites.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { type Actor, logSecurityEvent } from '../lib/logger.js';
import { mapLimit } from '../lib/mapLimit.js';
import { config } from '../lib/config.js';
import { assertOutboundUrl } from '../lib/net/outboundUrlGuard.js';
import { decryptSecret, encryptSecret } from '../lib/secrets/index.js';
import { SiteNotFoundError } from './errors.js';
import {
  type NewSiteAccount,
  type SiteRecord,
  type StoredSiteAccount,
  type StoredSiteToken,
  type SiteStore,
  siteStore,
} from './store.js';

type AccountSummary = Site['accounts'][number];

const summary = (a: StoredSiteAccount): AccountSummary => ({
  id: a.id,
  site_id: a.site_id,
  user: a.user,
  enable: a.enable,
  status: a.enable ? 1 : 2,
  created_at: a.created_at,
});

const toSite = (site: SiteRecord, accounts: StoredSiteAccount[]): Site => ({
  ...site,
  control: site.control ?? false,
  accounts: accounts.map(summary),
});

/** Sites with their accounts; one account read per site, a few at a time. */
function withAccounts(rows: SiteRecord[]): Promise<Site[]> {
  return mapLimit(rows, 8, async (site) => toSite(site, await siteStore().accountsOf(site.id)));
}

async function siteRow(id: number): Promise<SiteRecord> {
  const site = await siteStore().getSite(id);
  if (!site) throw new SiteNotFoundError(id);
  return site;
}

const oneWithAccounts = async (site: SiteRecord): Promise<Site> => (await withAccounts([site]))[0];

export async function getSite(id: number): Promise<Site> {
  return oneWithAccounts(await siteRow(id));
}

export async function listSites(query: ListQuery): Promise<ListOutcome<Site>> {
  const page = await siteStore().listSites(query);
  // Each row carries its accounts; their reads are part of what this list call costs.
  const withTheirs = await mapLimit(page.result, 8, async (site) => {
    const accounts = await siteStore().listAccountsOf(site.id);
    return { site: toSite(site, accounts.result), rcu: accounts.consumed_rcu };
  });
  const rcu = withTheirs.reduce((sum, r) => sum + r.rcu, page.consumed_rcu);
  return { ...page, result: withTheirs.map((r) => r.site), consumed_rcu: Math.round(rcu * 100) / 100 };
}

/** Live sites matching a list query, for pickers (rules stepper) and batch checks. */
export async function allSites(
  query: ListQuery = emptyListQuery({ page_size: 0 }),
): Promise<Pick<Site, 'id' | 'name' | 'url' | 'enable' | 'available_account_cnt'>[]> {
  const { result } = await siteStore().listSites(query);
  return result.map(({ id, name, url, enable, available_account_cnt }) => ({
    id,
    name,
    url,
    enable,
    available_account_cnt,
  }));
}

/** The API's view of an account: never its password (GET /sites/accounts/{id}/pwd reveals one). */
function toAccount(row: StoredSiteAccount, siteName?: string | null): SiteAccount {
  return {
    ...summary(row),
    site: siteName === undefined || siteName === null ? null : { name: siteName },
  };
}

/** Where an account's password is stored: its ciphertext decrypts only there (lib/secrets). */
const pwdContext = (id: number) => ({ entity: 'site_account', id, field: 'pwd' });
/** Where a captured session is stored, likewise. */
const tokenContext = (id: number) => ({ entity: 'site_token', id, field: 'token' });

/** Ids first: each password is encrypted for the row it goes into. */
const encryptAccounts = (accounts: NewAccount[]): Promise<NewSiteAccount[]> =>
  Promise.all(
    accounts.map(async (a) => {
      const id = await siteStore().newAccountId();
      return { id, user: a.user, pwd_enc: await encryptSecret(a.pwd, pwdContext(id)), enable: true };
    }),
  );

/** A site URL must not point the checker at a private address (lib/net/outboundUrlGuard). */
const assertSiteUrl = (url: string) => assertOutboundUrl(url, { allowedHosts: config.allowedPrivateHosts });

/** Creates a site with its accounts, all enabled; a name taken (case-insensitive) is a SiteExistsError. */
export async function createSite(body: Omit<NewSiteBody, 'control'> & { control?: boolean }): Promise<Site> {
  await assertSiteUrl(body.url);
  const { site, accounts } = await siteStore().createSite(
    {
      name: body.name,
      url: body.url,
      enable: true,
      control: body.control ?? false,
      available_account_cnt: body.accounts.length,
    },
    await encryptAccounts(body.accounts),
  );
  return toSite(site, accounts);
}

export async function updateSite(id: number, body: UpdateSiteBody, actor?: Actor): Promise<Site> {
  const store = siteStore();
  if ('name' in body) return oneWithAccounts(await store.renameSite(id, body.name));
  if ('url' in body) {
    await assertSiteUrl(body.url);
    const before = await siteRow(id);
    const updated = await oneWithAccounts(await store.updateSite(id, { url: body.url }));
    logSecurityEvent({
      event: 'site_url_change',
      actor: actor?.id ?? 'system',
      target: `site#${id}`,
      client_ip: actor?.client_ip,
      outcome: 'success',
      from: before.url,
      to: body.url,
    });
    return updated;
  }
  if ('enable' in body) return oneWithAccounts(await store.updateSite(id, { enable: body.enable }));
  if ('control' in body) return oneWithAccounts(await store.updateSite(id, { control: body.control }));
  // Soft delete: kept for the history of operations, hidden from lists and checks; the name is free again.
  const site = await getSite(id);
  await store.deleteSite(id);
  return { ...site, enable: false };
}

export async function addAccounts(siteId: number, body: AddAccountsBody): Promise<SiteAccount[]> {
  const site = await siteRow(siteId);
  if (body.accounts.length === 0) return listSiteAccounts(siteId);
  const written = await siteStore().addAccounts(siteId, await encryptAccounts(body.accounts));
  await siteStore().addAvailableAccounts(siteId, written.length);
  return written.map((a) => toAccount(a, site.name));
}

export async function listSiteAccounts(siteId: number): Promise<SiteAccount[]> {
  const site = await siteRow(siteId);
  const rows = await siteStore().accountsOf(siteId);
  return rows.map((a) => toAccount(a, site.name));
}

/** Site names for a page of rows that refer to sites; deleted sites read as null. */
async function siteNames(ids: number[]): Promise<Map<number, string>> {
  const found = await siteStore().getSites(ids);
  return new Map(found.map((s) => [s.id, s.name]));
}

export async function listAccounts(query: ListQuery): Promise<ListOutcome<SiteAccount>> {
  const page = await siteStore().listAccounts(query);
  const names = await siteNames(page.result.map((a) => a.site_id));
  return { ...page, result: page.result.map((a) => toAccount(a, names.get(a.site_id) ?? null)) };
}

/** Enabled accounts of a site, with their passwords, for the checker. */
export async function enabledAccounts(siteId: number): Promise<(SiteAccount & { pwd: string })[]> {
  const rows = await siteStore().accountsOf(siteId);
  return Promise.all(
    rows
      .filter((a) => a.enable)
      .map(async (a) => ({ ...toAccount(a), pwd: await decryptSecret(a.pwd_enc, pwdContext(a.id)) })),
  );
}

/** One live account with its password, for the checker running a task that chose it; undefined when deleted. */
/** The account a check signs in with, password decrypted; only the checker asks for it. */
export async function checkerAccount(id: number): Promise<(SiteAccount & { pwd: string }) | undefined> {
  const row = await siteStore().getAccount(id);
  return row && { ...toAccount(row), pwd: await decryptSecret(row.pwd_enc, pwdContext(row.id)) };
}

export async function updateAccount(id: number, body: UpdateAccountBody): Promise<SiteAccount> {
  const store = siteStore();
  if ('user' in body) return toAccount(await store.updateAccount(id, { user: body.user }));
  if ('pwd' in body)
    return toAccount(await store.updateAccount(id, { pwd_enc: await encryptSecret(body.pwd, pwdContext(id)) }));
  const { account, changed } = await store.setAccountEnable(id, body.enable);
  // Only the writer that flipped the flag moves the counter, so racing toggles count once;
  // a counter left behind by a crash here is the repair path's (recountSite) to fix.
  if (changed) await store.addAvailableAccounts(account.site_id, body.enable ? 1 : -1).catch(() => undefined);
  return toAccount(account);
}

/**
 * The repair path for the counter: recomputes available_account_cnt from the accounts.
 * The counter is kept by single-item atomic adds (no transactions on the local engine);
 * a crash between an account write and its add leaves it off by one until this runs.
 */
export async function recountSite(siteId: number): Promise<number> {
  const store = siteStore();
  const count = (await store.accountsOf(siteId)).filter((a) => a.enable).length;
  const site = await store.getSite(siteId);
  if (site && site.available_account_cnt !== count) await store.updateSite(siteId, { available_account_cnt: count });
  return count;
}

export async function recountAllSites(): Promise<number> {
  const all = await siteStore().allSites();
  for (const s of all) await recountSite(s.id);
  return all.length;
}

export async function listTokens(query: ListQuery): Promise<ListOutcome<SiteAccountToken>> {
  const store = siteStore();
  const page = await store.listTokens(query);
  const names = await siteNames(page.result.map((t) => t.site_id));
  const accounts = new Map((await store.getAccounts(page.result.map((t) => t.account_id))).map((a) => [a.id, a.user]));
  return {
    ...page,
    result: page.result.map((t) => ({
      id: t.id,
      site_id: t.site_id,
      account_id: t.account_id,
      account: accounts.has(t.account_id) ? { user: accounts.get(t.account_id)! } : null,
      site: names.has(t.site_id) ? { name: names.get(t.site_id)! } : null,
      auth_type: t.auth_type,
      created_at: t.created_at,
      expire_at: t.expire_at,
    })),
  };
}

// What other features show or use of sites. History keeps naming deleted sites and accounts.

/** `{id, name}` of each site id that is live (not deleted); the others are left out. */
export async function liveSiteRefs(ids: number[]): Promise<Map<number, { id: number; name: string }>> {
  const rows = ids.length ? await siteStore().getSites(ids) : [];
  return new Map(rows.map((s) => [s.id, { id: s.id, name: s.name }]));
}

/** `{id, name, url}` of each site id, deleted ones included. */
export async function siteRefs(
  ids: (number | null)[],
): Promise<Map<number, Pick<Site, 'id' | 'name' | 'url' | 'control'>>> {
  const wanted = ids.filter((i): i is number => typeof i === 'number');
  const rows = wanted.length ? await siteStore().getSites(wanted, { includeDeleted: true }) : [];
  return new Map(rows.map((s) => [s.id, { id: s.id, name: s.name, url: s.url, control: s.control ?? false }]));
}

/**
 * Every live site's id and name, with the read units it cost: one list read of the sites (not a
 * get per id), for a dashboard that names every site it shows.
 */
export async function liveSiteNames(): Promise<{ sites: Map<number, { id: number; name: string }>; rcu: number }> {
  const page = await siteStore().listSites(emptyListQuery({ page_size: 0 }));
  return { sites: new Map(page.result.map((s) => [s.id, { id: s.id, name: s.name }])), rcu: page.consumed_rcu };
}

/** `{id, user}` of each account id, deleted ones included; never the password. */
export async function accountRefs(ids: (number | null)[]): Promise<Map<number, { id: number; user: string }>> {
  const wanted = ids.filter((i): i is number => typeof i === 'number');
  const rows = wanted.length ? await siteStore().getAccounts(wanted, { includeDeleted: true }) : [];
  return new Map(rows.map((a) => [a.id, { id: a.id, user: a.user }]));
}

/** Keeps a login session a check captured (encrypted at rest); returns its token id. */
export async function saveAccountSession(
  input: Pick<StoredSiteToken, 'site_id' | 'account_id' | 'auth_type' | 'expire_at'> & { session: string },
): Promise<number> {
  const id = await siteStore().newTokenId();
  const token = await siteStore().createToken({
    id,
    site_id: input.site_id,
    account_id: input.account_id,
    auth_type: input.auth_type,
    token_enc: await encryptSecret(input.session, tokenContext(id)),
    expire_at: input.expire_at,
  });
  return token.id;
}

/**
 * Sessions read lately, per store and table, by token id. A token row is written once and never
 * changed (a login stores a new one), so the subtasks of a task that restore its login's session
 * (14 of a default task's 15) read the row once per checker process, not once each.
 */
const recentTokens = new WeakMap<SiteStore, Map<string, StoredSiteToken>>();
const RECENT_TOKENS_KEPT = 256;

async function tokenRow(tokenId: number): Promise<StoredSiteToken | undefined> {
  const store = siteStore();
  let recent = recentTokens.get(store);
  if (!recent) {
    recent = new Map();
    recentTokens.set(store, recent);
  }
  const key = `${config.tableName}\0${tokenId}`;
  const kept = recent.get(key);
  if (kept) return kept;
  const token = await store.getToken(tokenId);
  if (token) {
    recent.set(key, token);
    // Oldest first in a Map's order: drop it once more are kept than a checker's tasks in flight need.
    if (recent.size > RECENT_TOKENS_KEPT) recent.delete(recent.keys().next().value as string);
  }
  return token;
}

/** A kept session, unless it is gone or expired. */
export async function readAccountSession(tokenId: number, now = Date.now()): Promise<string | undefined> {
  const token = await tokenRow(tokenId);
  if (!token || (token.expire_at !== null && token.expire_at < now)) return undefined;
  return decryptSecret(token.token_enc, tokenContext(token.id));
}
