import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyListQuery } from '../../shared/listQuery.js';
import { resetSecretKeys } from '../lib/secrets/index.js';
import { SiteAccountNotFoundError, SiteExistsError, SiteNotFoundError } from './errors.js';
import { memorySiteStore } from './memorySiteStore.js';
import {
  addAccounts,
  allSites,
  createSite,
  enabledAccounts,
  getSite,
  listSiteAccounts,
  listSites,
  recountSite,
  siteRefs,
  updateAccount,
  updateSite,
} from './service.js';
import { type SiteStore, useSiteStore } from './store.js';

// The sites service over the in-memory SiteStore: the rules of names, deletes and the
// valid-account counter, without an engine. tests/integration/sites.test.ts covers the wire.

let dir: string;
let store: SiteStore;
const savedKeyFile = process.env.SECRETS_KEY_FILE;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patrol-sites-'));
  process.env.SECRETS_KEY_FILE = join(dir, 'secrets.key');
  resetSecretKeys();
});
afterAll(async () => {
  useSiteStore(undefined);
  if (savedKeyFile === undefined) delete process.env.SECRETS_KEY_FILE;
  else process.env.SECRETS_KEY_FILE = savedKeyFile;
  resetSecretKeys();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  store = memorySiteStore();
  useSiteStore(store);
});

const newSite = (name = 'Alpha', accounts = [{ user: 'agent01', pwd: 'secret-1' }]) =>
  createSite({ name, url: 'https://alpha.test', accounts });

describe('creating sites', () => {
  it('creates a site with its accounts, counted as valid accounts, passwords encrypted at rest', async () => {
    const site = await newSite('Alpha', [
      { user: 'agent01', pwd: 'secret-1' },
      { user: 'agent02', pwd: 'secret-2' },
    ]);

    expect(site).toMatchObject({ name: 'Alpha', enable: true, available_account_cnt: 2 });
    expect(site.accounts.map((a) => [a.user, a.status])).toEqual([
      ['agent01', 1],
      ['agent02', 1],
    ]);
    expect(site.accounts[0]).not.toHaveProperty('pwd');
    const accounts = await listSiteAccounts(site.id);
    expect(accounts[0]).not.toHaveProperty('pwd');
    expect((await enabledAccounts(site.id)).map((a) => a.pwd)).toEqual(['secret-1', 'secret-2']);
    const stored = await store.getAccount(accounts[0].id);
    expect(stored?.pwd_enc).not.toContain('secret-1');
  });

  it('refuses a second site with the same name in any case, and writes nothing for it', async () => {
    await newSite('Alpha');

    await expect(newSite(' ALPHA ')).rejects.toBeInstanceOf(SiteExistsError);

    const page = await listSites(emptyListQuery());
    expect(page.result.map((s) => s.name)).toEqual(['Alpha']);
  });
});

describe('renaming sites', () => {
  it('renames a site, frees the old name and takes the new one', async () => {
    const site = await newSite('Alpha');

    const renamed = await updateSite(site.id, { name: 'Beta' });

    expect(renamed).toMatchObject({ id: site.id, name: 'Beta', accounts: [{ user: 'agent01' }] });
    await expect(newSite('beta')).rejects.toBeInstanceOf(SiteExistsError);
    expect((await newSite('Alpha')).name).toBe('Alpha');
  });

  it('refuses a name another site holds and keeps the old name', async () => {
    const alpha = await newSite('Alpha');
    await newSite('Beta');

    await expect(updateSite(alpha.id, { name: 'BETA' })).rejects.toBeInstanceOf(SiteExistsError);

    expect((await getSite(alpha.id)).name).toBe('Alpha');
  });

  it('lets a site change the case of its own name', async () => {
    const site = await newSite('Alpha');
    expect((await updateSite(site.id, { name: 'ALPHA' })).name).toBe('ALPHA');
  });

  it('answers SiteNotFoundError for an unknown site', async () => {
    await expect(updateSite(999, { name: 'X' })).rejects.toBeInstanceOf(SiteNotFoundError);
    await expect(updateSite(999, { url: 'https://x.test' })).rejects.toBeInstanceOf(SiteNotFoundError);
  });
});

describe('deleting sites', () => {
  it('hides a deleted site and its accounts, frees its name, and still names it for history', async () => {
    const site = await newSite('Alpha');

    expect(await updateSite(site.id, { delete: 1 })).toMatchObject({ id: site.id, enable: false });

    await expect(getSite(site.id)).rejects.toBeInstanceOf(SiteNotFoundError);
    expect((await listSites(emptyListQuery())).total_count).toBe(0);
    expect(await allSites()).toEqual([]);
    expect(await enabledAccounts(site.id)).toEqual([]);
    expect((await siteRefs([site.id])).get(site.id)?.name).toBe('Alpha');
    expect((await newSite('alpha')).id).not.toBe(site.id);
  });
});

describe('the valid-account counter', () => {
  it('moves with added accounts and with enable toggles, counting a repeated toggle once', async () => {
    const site = await newSite('Alpha');
    const [added] = await addAccounts(site.id, { accounts: [{ user: 'agent09', pwd: 'pw-9' }] });
    expect((await getSite(site.id)).available_account_cnt).toBe(2);

    await updateAccount(added.id, { enable: false });
    await updateAccount(added.id, { enable: false });
    expect((await getSite(site.id)).available_account_cnt).toBe(1);
    expect((await enabledAccounts(site.id)).map((a) => a.user)).toEqual(['agent01']);

    await updateAccount(added.id, { enable: true });
    expect((await getSite(site.id)).available_account_cnt).toBe(2);
  });

  it('changes nothing when an empty list of accounts is added', async () => {
    const site = await newSite('Alpha');
    expect((await addAccounts(site.id, { accounts: [] })).map((a) => a.user)).toEqual(['agent01']);
    expect((await getSite(site.id)).available_account_cnt).toBe(1);
  });

  it('is repaired from the accounts by recountSite', async () => {
    const site = await newSite('Alpha');
    await store.addAvailableAccounts(site.id, 5);

    expect(await recountSite(site.id)).toBe(1);

    expect((await getSite(site.id)).available_account_cnt).toBe(1);
  });

  it('answers SiteAccountNotFoundError for an unknown account', async () => {
    await expect(updateAccount(999, { enable: false })).rejects.toBeInstanceOf(SiteAccountNotFoundError);
    await expect(updateAccount(999, { user: 'x' })).rejects.toBeInstanceOf(SiteAccountNotFoundError);
  });
});

describe('all sites for pickers', () => {
  it('answers every live site matching the query, in its order', async () => {
    await newSite('Alpha');
    const beta = await newSite('Beta');
    await newSite('Gamma');
    await updateSite(beta.id, { enable: false });

    const enabled = await allSites(
      emptyListQuery({ page_size: 0, filters: { enable: { kind: 'boolean', value: true } } }),
    );
    expect(enabled.map((s) => s.name)).toEqual(['Alpha', 'Gamma']);
    const sorted = await allSites(emptyListQuery({ page_size: 0, sort: [{ field: 'name', order: 'desc' }] }));
    expect(sorted.map((s) => s.name)).toEqual(['Gamma', 'Beta', 'Alpha']);
  });
});
