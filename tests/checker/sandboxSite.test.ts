import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PASSWORD, type SandboxSiteHandle, startSandboxSite } from '../../scripts/sandbox/site/server';

let site: SandboxSiteHandle;
beforeAll(async () => {
  site = await startSandboxSite({ port: 0, slowMs: 300 });
});
afterAll(() => site?.stop());

async function login(username: string, password = SANDBOX_PASSWORD) {
  const res = await fetch(`${site.url}/api/login`, { method: 'POST', body: JSON.stringify({ username, password }) });
  return {
    status: res.status,
    cookie: res.headers.get('set-cookie'),
    body: (await res.json()) as { code: number; msg: string; data?: { token: string } },
  };
}

describe('the sandbox site', () => {
  it('answers a login with a session cookie and a token', async () => {
    const res = await login('agent01');
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.cookie).toMatch(new RegExp(`^sid=${res.body.data!.token};`));
  });

  it('gives the same seeded data to two servers with the same seed', async () => {
    const other = await startSandboxSite({ port: 0 });
    try {
      const read = async (url: string) => {
        const res = await fetch(`${url}/api/login`, {
          method: 'POST',
          body: JSON.stringify({ username: 'agent01', password: SANDBOX_PASSWORD }),
        });
        const { data } = (await res.json()) as { data: { token: string } };
        return (await fetch(`${url}/api/tt/agents`, { headers: { authorization: `Bearer ${data.token}` } })).json();
      };
      expect(await read(site.url)).toEqual(await read(other.url));
    } finally {
      await other.stop();
    }
  });

  it('sends a page without a session to the login form with the page to come back to', async () => {
    const res = await fetch(`${site.url}/tt/agents`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?next=%2Ftt%2Fagents');
  });

  it('refuses a behaviour switch it does not know with a 400 and the reason', async () => {
    const res = await fetch(`${site.url}/__sandbox/behaviour`, {
      method: 'POST',
      body: JSON.stringify({ failure: 'explode' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { msg: string }).msg).toMatch(/^failure must be one of none, wrong_password/);
  });

  it('fails a single request on demand through the x-sandbox-failure header', async () => {
    const { body } = await login('agent02');
    const headers = { authorization: `Bearer ${body.data!.token}` };
    const broken = await fetch(`${site.url}/api/d4/draw`, { headers: { ...headers, 'x-sandbox-failure': 'badjson' } });
    await expect(broken.clone().json()).rejects.toThrow();
    const fine = await fetch(`${site.url}/api/d4/draw`, { headers });
    expect(((await fine.json()) as { data: { open: boolean } }).data.open).toBe(true);
  });

  it('stops promptly even while a slow answer is pending', async () => {
    const other = await startSandboxSite({ port: 0, slowMs: 60_000 });
    const { token } = (
      (await (
        await fetch(`${other.url}/api/login`, {
          method: 'POST',
          body: JSON.stringify({ username: 'slow01', password: SANDBOX_PASSWORD }),
        })
      ).json()) as { data: { token: string } }
    ).data;
    fetch(`${other.url}/api/d4/agents`, { headers: { authorization: `Bearer ${token}` } }).catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await other.stop();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
