import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import { describe, expect, inject, it } from 'vitest';
import { login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';

// The smoke script a deployer runs after `cdk deploy` (docs/deploy.md), run here as they would,
// against the shared local stack with the admin password the stack was started with.

const run = promisify(execFile);
const stack = inject('stack');

const smoke = (url: string, password: string) => smokeWith(['--url', url], { PATROL_PASSWORD: password });

function smokeWith(args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/smoke.ts', ...args], {
    env: { ...process.env, ...env },
    timeout: 90_000,
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout + error.stderr,
    }),
  );
}

/** A port on this machine that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('npm run smoke', () => {
  it('checks health, signs in as admin, lists sites and reads the API document, and exits 0', async () => {
    const { code, stdout } = await smoke(stack.url, stack.adminPassword);

    expect(stdout).toMatch(/^ok {3}health \(\d+ ms\): ok$/m);
    expect(stdout).toMatch(/^ok {3}sign in as admin \(\d+ ms\): signed in$/m);
    expect(stdout).toMatch(/^ok {3}list sites \(\d+ ms\): \d+ sites$/m);
    expect(stdout).toMatch(/^ok {3}API document \(\d+ ms\): OpenAPI 3\.\d\.\d, \d+ paths$/m);
    expect(stdout).toContain('smoke: all 4 checks passed');
    expect(stdout).not.toContain(stack.adminPassword);
    expect(code).toBe(0);
  });

  it('signs in with a TOTP code from PATROL_TOTP_SECRET for a user with a second factor, or takes PATROL_TOKEN', async () => {
    const k = kit(stack);
    const username = uniqueName('smoke');
    await k.createUser(username, 'smoke-pass-1', 'viewer');
    const token = await login(stack.url, username, 'smoke-pass-1');
    const { secret } = (
      await k.client.post('/api/v1/me/totp', { ...fromIp(uniqueIp()), token, body: { password: 'smoke-pass-1' } })
    ).body.data;
    // Enrolled with the previous window's code (the server takes one window either side), so the
    // code the script makes now is of a later window than any used.
    const previous = await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 });
    const confirmed = await k.client.post('/api/v1/me/totp/confirm', {
      ...fromIp(uniqueIp()),
      token,
      body: { code: previous },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const adminToken = await k.admin();
    k.destroy();
    const asUser = (env: Record<string, string>) =>
      smokeWith(['--url', stack.url, '--user', username], { PATROL_PASSWORD: 'smoke-pass-1', ...env });

    const without = await asUser({});
    expect(without.stdout).toMatch(
      /^FAIL sign in as smoke\S+ \(\d+ ms\): the user has a second factor: set PATROL_TOTP_SECRET or PATROL_TOKEN$/m,
    );
    expect(without.code).toBe(1);

    const withCode = await asUser({ PATROL_TOTP_SECRET: secret });
    expect(withCode.stdout).toMatch(/^ok {3}sign in as smoke\S+ \(\d+ ms\): signed in with a TOTP code$/m);
    expect(withCode.stdout).toContain('smoke: all 4 checks passed');
    expect(withCode.stdout).not.toContain(secret);

    const withToken = await asUser({ PATROL_TOKEN: adminToken, PATROL_PASSWORD: '' });
    expect(withToken.stdout).toMatch(/^ok {3}sign in as smoke\S+ \(\d+ ms\): token given$/m);
    expect(withToken.code).toBe(0);
  });

  it('exits 1 and names what failed when nothing answers at the address', async () => {
    const { code, stdout } = await smoke(`http://127.0.0.1:${await closedPort()}`, stack.adminPassword);

    expect(stdout).toMatch(/^FAIL health/m);
    expect(stdout).toMatch(/^FAIL list sites \(\d+ ms\): skipped: not signed in$/m);
    expect(stdout).toContain('smoke: 4 of 4 checks failed');
    expect(code).toBe(1);
  });
});
