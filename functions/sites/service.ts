import type { ListQuery } from '../../shared/listQuery.js';
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
import { ConditionFailedError } from '../lib/db/entity.js';
import { nextId } from '../lib/db/ids.js';
import { UniqueTakenError, claimUnique, releaseUnique } from '../lib/db/unique.js';
import { config } from '../lib/config.js';
import { assertOutboundUrl } from '../lib/net/outboundUrlGuard.js';
import { decryptSecret, encryptSecret } from '../lib/secrets/index.js';
import { SiteAccountNotFoundError, SiteExistsError, SiteNotFoundError } from './errors.js';
import { type StoredSiteAccount, siteAccounts, siteTokens, sites } from './store.js';

// Site names are unique case-insensitively: "Alpha" and "alpha" are the same site to an operator.
const nameKey = (name: string) => name.trim().toLowerCase();

async function claimName(name: string, siteId: number): Promise<void> {
  try {
    await claimUnique('site', 'name', nameKey(name), siteId);
  } catch (error) {
    if (error instanceof UniqueTakenError) throw new SiteExistsError(name);
    throw error;
  }
}

export async function getSite(id: number): Promise<Site> {
  const site = await sites.get(id);
  if (!site) throw new SiteNotFoundError(id);
  return site;
}

export function listSites(query: ListQuery): Promise<ListOutcome<Site>> {
  return sites.list(query);
}

/** Every live site, for pickers (rules stepper) and batch checks. */
export async function allSites(): Promise<Pick<Site, 'id' | 'name' | 'url' | 'enable' | 'available_account_cnt'>[]> {
  const rows = await sites.all();
  return rows.map(({ id, name, url, enable, available_account_cnt }) => ({
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
    id: row.id,
    site_id: row.site_id,
    user: row.user,
    enable: row.enable,
    status: row.enable ? 1 : 2,
    created_at: row.created_at,
    site: siteName === undefined || siteName === null ? null : { name: siteName },
  };
}

/** Where an account's password is stored: its ciphertext decrypts only there (lib/secrets). */
const pwdContext = (id: number) => ({ entity: 'site_account', id, field: 'pwd' });

async function writeAccounts(siteId: number, accounts: NewAccount[]): Promise<StoredSiteAccount[]> {
  const written: StoredSiteAccount[] = [];
  for (const a of accounts) {
    // The id first: the password is encrypted for the row it goes into.
    const id = await nextId(siteAccounts.def.type);
    const pwd_enc = await encryptSecret(a.pwd, pwdContext(id));
    written.push(await siteAccounts.create({ site_id: siteId, user: a.user, pwd_enc, enable: true }, { id }));
  }
  return written;
}

/** A site URL must not point the checker at a private address (lib/net/outboundUrlGuard). */
const assertSiteUrl = (url: string) => assertOutboundUrl(url, { allowedHosts: config.allowedPrivateHosts });

/**
 * Creates a site with its accounts. The name is claimed first so two operators cannot create
 * the same site; if any later write fails, what was written is removed again, so no half site stays.
 */
export async function createSite(body: NewSiteBody): Promise<Site> {
  await assertSiteUrl(body.url);
  // The id comes first so that the name claim names its owner before the row exists.
  const siteId = await nextId(sites.def.type);
  await claimName(body.name, siteId);
  let site: Site | undefined;
  const written: StoredSiteAccount[] = [];
  try {
    site = await sites.create(
      { name: body.name, url: body.url, enable: true, available_account_cnt: 0 },
      { id: siteId },
    );
    written.push(...(await writeAccounts(site.id, body.accounts)));
    if (written.length) site = await sites.add(site.id, { available_account_cnt: written.length });
    return site;
  } catch (error) {
    await Promise.allSettled([
      ...written.map((a) => siteAccounts.remove(a.id)),
      site ? sites.remove(site.id) : Promise.resolve(),
      releaseUnique('site', 'name', nameKey(body.name), siteId),
    ]);
    throw error;
  }
}

export async function updateSite(id: number, body: UpdateSiteBody): Promise<Site> {
  const site = await getSite(id);
  try {
    if ('name' in body) {
      if (nameKey(body.name) === nameKey(site.name)) return await sites.update(id, { name: body.name });
      await claimName(body.name, id);
      try {
        const updated = await sites.update(id, { name: body.name }, { expect: { name: site.name } });
        await releaseUnique('site', 'name', nameKey(site.name), id);
        return updated;
      } catch (error) {
        await releaseUnique('site', 'name', nameKey(body.name), id);
        throw error;
      }
    }
    if ('url' in body) {
      await assertSiteUrl(body.url);
      return await sites.update(id, { url: body.url });
    }
    if ('enable' in body) return await sites.update(id, { enable: body.enable });
    // Soft delete: kept for the history of operations, hidden from lists and checks; the name is free again.
    const accounts = await siteAccounts.all({ scope: { site_id: id } });
    await sites.softDelete(id);
    await Promise.all(accounts.map((a) => siteAccounts.softDelete(a.id)));
    await releaseUnique('site', 'name', nameKey(site.name), id);
    return { ...site, enable: false };
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new SiteNotFoundError(id);
    throw error;
  }
}

export async function addAccounts(siteId: number, body: AddAccountsBody): Promise<SiteAccount[]> {
  const site = await getSite(siteId);
  if (body.accounts.length === 0) return listSiteAccounts(siteId);
  const written = await writeAccounts(siteId, body.accounts);
  await sites.add(siteId, { available_account_cnt: written.length });
  return written.map((a) => toAccount(a, site.name));
}

export async function listSiteAccounts(siteId: number): Promise<SiteAccount[]> {
  const site = await getSite(siteId);
  const rows = await siteAccounts.all({ scope: { site_id: siteId } });
  return rows.map((a) => toAccount(a, site.name));
}

/** Site names for a page of rows that refer to sites; deleted sites read as null. */
async function siteNames(ids: number[]): Promise<Map<number, string>> {
  const found = await sites.getMany([...new Set(ids)]);
  return new Map(found.map((s) => [s.id, s.name]));
}

export async function listAccounts(query: ListQuery): Promise<ListOutcome<SiteAccount>> {
  const page = await siteAccounts.list(query);
  const names = await siteNames(page.result.map((a) => a.site_id));
  return { ...page, result: page.result.map((a) => toAccount(a, names.get(a.site_id) ?? null)) };
}

/** Enabled accounts of a site, with their passwords, for the checker. */
export async function enabledAccounts(siteId: number): Promise<(SiteAccount & { pwd: string })[]> {
  const rows = await siteAccounts.all({ scope: { site_id: siteId } });
  return Promise.all(
    rows
      .filter((a) => a.enable)
      .map(async (a) => ({ ...toAccount(a), pwd: await decryptSecret(a.pwd_enc, pwdContext(a.id)) })),
  );
}

export async function updateAccount(id: number, body: UpdateAccountBody): Promise<SiteAccount> {
  const account = await siteAccounts.get(id);
  if (!account) throw new SiteAccountNotFoundError(id);
  try {
    let updated: StoredSiteAccount;
    if ('user' in body) updated = await siteAccounts.update(id, { user: body.user });
    else if ('pwd' in body)
      updated = await siteAccounts.update(id, { pwd_enc: await encryptSecret(body.pwd, pwdContext(id)) });
    else {
      if (account.enable === body.enable) return toAccount(account);
      // Only the writer that actually flips the flag moves the site's counter, so two
      // concurrent toggles to the same state count once.
      try {
        updated = await siteAccounts.update(id, { enable: body.enable }, { expect: { enable: account.enable } });
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const now = await siteAccounts.get(id);
        if (!now) throw new SiteAccountNotFoundError(id);
        if (now.enable === body.enable) return toAccount(now);
        throw error;
      }
      await sites.add(account.site_id, { available_account_cnt: body.enable ? 1 : -1 }).catch(() => undefined);
    }
    return toAccount(updated);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new SiteAccountNotFoundError(id);
    throw error;
  }
}

/**
 * The repair path for the counter: recomputes available_account_cnt from the accounts.
 * The counter is kept by single-item atomic adds (no transactions on the local engine);
 * a crash between an account write and its add leaves it off by one until this runs.
 */
export async function recountSite(siteId: number): Promise<number> {
  const rows = await siteAccounts.all({ scope: { site_id: siteId } });
  const count = rows.filter((a) => a.enable).length;
  const site = await sites.get(siteId);
  if (site && site.available_account_cnt !== count) await sites.update(siteId, { available_account_cnt: count });
  return count;
}

export async function recountAllSites(): Promise<number> {
  const all = await sites.all();
  for (const s of all) await recountSite(s.id);
  return all.length;
}

export async function listTokens(query: ListQuery): Promise<ListOutcome<SiteAccountToken>> {
  const page = await siteTokens.list(query);
  const names = await siteNames(page.result.map((t) => t.site_id));
  const accounts = new Map(
    (await siteAccounts.getMany(page.result.map((t) => t.account_id))).map((a) => [a.id, a.user]),
  );
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
