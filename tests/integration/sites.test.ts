import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
/** Reveals go through their own user: the reveal limit counts per user, and the admin is shared. */
let revealToken: string;
const revealPwd = async (accountId: number) => {
  const res = await client.get(`/api/v1/sites/accounts/${accountId}/pwd`, { token: revealToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.pwd as string;
};

const post = (path: string, body: unknown) => client.post(`/api/v1${path}`, { token, body });
const put = (path: string, body: unknown) => client.put(`/api/v1${path}`, { token, body });
const get = (path: string) => client.get(`/api/v1${path}`, { token });

async function newSite(accounts = [{ user: 'agent01', pwd: 'secret-1' }], name = uniqueName('Site ')) {
  const res = await post('/sites', { name, url: 'https://example.test/agent', accounts });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; name: string; available_account_cnt: number };
}

beforeAll(async () => {
  token = await k.admin();
  const revealer = uniqueName('rv');
  await k.createUser(revealer, 'revealer-pass-1');
  revealToken = await login(stack.url, revealer, 'revealer-pass-1');
});
afterAll(() => k.destroy());

describe('creating sites', () => {
  it('creates a site with its accounts and counts them as valid accounts', async () => {
    const site = await newSite([
      { user: ' agent01 ', pwd: ' pw-1 ' },
      { user: 'agent02', pwd: 'pw-2' },
    ]);
    expect(site.available_account_cnt).toBe(2);

    const accounts = await get(`/sites/${site.id}/accounts`);
    expect(accounts.status).toBe(200);
    const rows = accounts.body.data as { id: number; user: string }[];
    const pairs = await Promise.all(rows.map(async (a) => [a.user, await revealPwd(a.id)]));
    expect(pairs.sort()).toEqual([
      ['agent01', 'pw-1'],
      ['agent02', 'pw-2'],
    ]);
  });

  it.each([
    [{ name: '   ', url: 'https://a.test', accounts: [] }, 'name', 'Please enter site name'],
    [{ url: 'https://a.test', accounts: [] }, 'name', 'Please enter site name'],
    [{ name: 'X', url: '', accounts: [] }, 'url', 'Please enter site url'],
    [{ name: 'X', url: 'ftp://a.test', accounts: [] }, 'url', 'Please give the full address including http(s)://'],
    [
      { name: 'X', url: 'https://a.test', accounts: [{ user: '', pwd: 'p' }] },
      'accounts.0.user',
      'Please enter this account',
    ],
    [
      { name: 'X', url: 'https://a.test', accounts: [{ user: 'u', pwd: '  ' }] },
      'accounts.0.pwd',
      'Please enter this password',
    ],
  ])('refuses %j with the spec message and writes nothing', async (body, field, message) => {
    const before = await get('/sites?page_size=0');
    const res = await post('/sites', body);
    expect(res.status).toBe(400);
    expect(res.body.extra[field]).toBe(message);
    expect(res.body.data).toBeUndefined();
    const after = await get('/sites?page_size=0');
    expect(after.body.data.total_count).toBe(before.body.data.total_count);
  });

  it('refuses a second site with the same name in another case', async () => {
    const site = await newSite();
    const res = await post('/sites', { name: site.name.toUpperCase(), url: 'https://b.test', accounts: [] });
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('already exists');
  });

  it('stores passwords encrypted, never in plain text', async () => {
    const site = await newSite([{ user: 'plainuser', pwd: 'very-secret-pw' }]);
    const accounts = await get(`/sites/${site.id}/accounts`);
    const raw = await k.rawItem(`site_account#${accounts.body.data[0].id}`, 'item');
    expect(JSON.stringify(raw)).not.toContain('very-secret-pw');
    expect(raw?.pwd_enc).toMatch(/^v2\./);
  });
});

describe('listing and filtering sites', () => {
  it('filters by part of the name in any case, and by enable', async () => {
    const tag = uniqueName('zq');
    const a = await newSite(undefined, `Alpha ${tag}`);
    await newSite(undefined, `Beta ${tag}`);
    await put(`/sites/${a.id}`, { enable: false });

    const byName = await get(`/sites?name=${encodeURIComponent(`ALPHA ${tag.toUpperCase()}`)}`);
    expect(byName.body.data.result.map((s: { id: number }) => s.id)).toEqual([a.id]);

    const disabled = await get(`/sites?keyword=${tag}&keywordField=name&enable=false`);
    expect(disabled.body.data).toMatchObject({ total_count: 1, page: 1, page_size: 20 });
    expect(disabled.body.data.result[0].name).toBe(`Alpha ${tag}`);
  });

  it('answers 400 with the spec text for a keyword under 3 characters', async () => {
    const res = await get('/sites?keyword=ab&keywordField=name');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('At least 3 chars');
  });

  it('reports the read units a list consumed', async () => {
    const res = await get('/sites');
    expect(Number(res.headers['x-consumed-rcu'])).toBeGreaterThan(0);
  });

  it('reads a page the table jumped to (x-list-jump) without looking for its cursor, and gives the same rows', async () => {
    const accounts = Array.from({ length: 30 }, (_, i) => ({ user: `jump${String(i).padStart(2, '0')}`, pwd: 'pw' }));
    // Two like sites, so neither call meets a cursor the other kept.
    const [plainSite, jumpSite] = [await newSite(accounts), await newSite(accounts)];
    const page3 = (siteId: number, headers?: Record<string, string>) =>
      client.get(`/api/v1/sites/accounts?site_id==-${siteId}&page=3&page_size=5`, { token, headers });
    const plain = await page3(plainSite.id);
    const jumped = await page3(jumpSite.id, { 'x-list-jump': '1' });
    expect(jumped.status).toBe(200);
    const users = (res: typeof plain) => res.body.data.result.map((a: { user: string }) => a.user);
    expect(users(jumped)).toEqual(users(plain));
    expect(users(jumped)).toHaveLength(5);
    // The same rows read, less the cursor lookup (an eventually consistent GetItem: 0.5 RCU).
    expect(Number(jumped.headers['x-consumed-rcu'])).toBe(Number(plain.headers['x-consumed-rcu']) - 0.5);
  });
});

describe('updating sites', () => {
  it('renames, changes the url and toggles enable', async () => {
    const site = await newSite();
    const newName = uniqueName('Renamed ');
    expect((await put(`/sites/${site.id}`, { name: `  ${newName} ` })).body.data.name).toBe(newName);
    expect((await put(`/sites/${site.id}`, { url: 'http://other.test' })).body.data.url).toBe('http://other.test');
    expect((await put(`/sites/${site.id}`, { enable: false })).body.data.enable).toBe(false);
    // The old name is free again after the rename.
    const reuse = await post('/sites', { name: site.name, url: 'https://c.test', accounts: [] });
    expect(reuse.status).toBe(200);
  });

  it('refuses enable that is not a boolean', async () => {
    const site = await newSite();
    const res = await put(`/sites/${site.id}`, { enable: 'yes' });
    expect(res.status).toBe(400);
  });

  it('soft-deletes a site: gone from lists and reads, 404 afterwards', async () => {
    const site = await newSite();
    expect((await put(`/sites/${site.id}`, { delete: 1 })).status).toBe(200);
    expect((await get(`/sites/${site.id}`)).status).toBe(404);
    const list = await get(`/sites?name=${encodeURIComponent(site.name)}`);
    expect(list.body.data.total_count).toBe(0);
    expect((await put(`/sites/${site.id}`, { name: 'again' })).status).toBe(404);
  });

  it('answers 404 for unknown ids', async () => {
    expect((await put('/sites/999999', { enable: true })).status).toBe(404);
    expect((await get('/sites/999999/accounts')).status).toBe(404);
    expect((await put('/sites/accounts/999999', { enable: true })).status).toBe(404);
  });
});

describe('site accounts', () => {
  it('adds accounts, edits them inline and keeps Valid Accounts right', async () => {
    const site = await newSite();
    const added = await post(`/sites/${site.id}/accounts`, { accounts: [{ user: 'agent09', pwd: 'pw-9' }] });
    expect(added.status).toBe(200);
    const accountId = added.body.data[0].id;
    expect((await get(`/sites/${site.id}`)).body.data.available_account_cnt).toBe(2);

    const edited = await put(`/sites/accounts/${accountId}`, { pwd: ' new-pw ' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).not.toHaveProperty('pwd');
    expect(await revealPwd(accountId)).toBe('new-pw');
    expect((await put(`/sites/accounts/${accountId}`, { user: 'agent10' })).body.data.user).toBe('agent10');
    expect((await put(`/sites/accounts/${accountId}`, { enable: false })).body.data).toMatchObject({
      enable: false,
      status: 2,
    });
    expect((await get(`/sites/${site.id}`)).body.data.available_account_cnt).toBe(1);
  });

  it('counts once when the same account is disabled by several operators at once', async () => {
    const site = await newSite([
      { user: 'a', pwd: 'p' },
      { user: 'b', pwd: 'p' },
    ]);
    const [first] = (await get(`/sites/${site.id}/accounts`)).body.data;
    await Promise.all(Array.from({ length: 8 }, () => put(`/sites/accounts/${first.id}`, { enable: false })));
    expect((await get(`/sites/${site.id}`)).body.data.available_account_cnt).toBe(1);
  });

  it('adding an empty list changes nothing', async () => {
    const site = await newSite();
    const res = await post(`/sites/${site.id}/accounts`, { accounts: [] });
    expect(res.status).toBe(200);
    expect((await get(`/sites/${site.id}`)).body.data.available_account_cnt).toBe(1);
  });

  it('lists all accounts with their site name', async () => {
    const site = await newSite([{ user: uniqueName('listed'), pwd: 'p' }]);
    const res = await get(`/sites/accounts?site_id==-${site.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.result[0]).toMatchObject({ site: { name: site.name }, enable: true });
  });

  it('lists no session tokens for a site that was never checked', async () => {
    const site = await newSite();
    const res = await get(`/sites/accounts/tokens?site_id==-${site.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.total_count).toBe(0);
  });
});

describe('site data', () => {
  it('gives a site with its accounts, never their passwords, in reads and lists', async () => {
    const site = await newSite([{ user: 'agent31', pwd: 'secret-31' }]);

    const one = await get(`/sites/${site.id}`);
    const page = await get(`/sites?name=${encodeURIComponent(site.name)}`);

    expect(one.body.data.accounts).toEqual([expect.objectContaining({ user: 'agent31', enable: true, status: 1 })]);
    expect(page.body.data.result[0].accounts).toEqual(one.body.data.accounts);
    expect(JSON.stringify([one.body, page.body])).not.toContain('secret-31');
  });

  it('answers /sites/all with the sites its query asks for, all of them unless a page size is given', async () => {
    const tag = uniqueName('picker');
    const on = await newSite(undefined, `${tag} on`);
    const off = await newSite(undefined, `${tag} off`);
    await put(`/sites/${off.id}`, { enable: false });

    const named = await get(`/sites/all?name=${encodeURIComponent(tag)}&sort=${encodeURIComponent('{"name":"asc"}')}`);
    const enabled = await get(`/sites/all?name=${encodeURIComponent(tag)}&enable=true`);
    const unknown = await get('/sites/all?colour=red');

    expect(named.status).toBe(200);
    expect(named.body.data.map((s: { id: number }) => s.id)).toEqual([off.id, on.id]);
    expect(enabled.body.data).toEqual([
      { id: on.id, name: on.name, url: 'https://example.test/agent', enable: true, available_account_cnt: 1 },
    ]);
    expect(unknown.status).toBe(400);
  });
});
