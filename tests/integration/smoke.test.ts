import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

// The smoke script a deployer runs after `cdk deploy` (docs/deploy.md), run here as they would,
// against the shared local stack with the admin password the stack was started with.

const run = promisify(execFile);
const stack = inject('stack');

function smoke(url: string, password: string) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/smoke.ts', '--url', url], {
    env: { ...process.env, PATROL_PASSWORD: password },
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

  it('exits 1 and names what failed when nothing answers at the address', async () => {
    const { code, stdout } = await smoke(`http://127.0.0.1:${await closedPort()}`, stack.adminPassword);

    expect(stdout).toMatch(/^FAIL health/m);
    expect(stdout).toMatch(/^FAIL list sites \(\d+ ms\): skipped: not signed in$/m);
    expect(stdout).toContain('smoke: 4 of 4 checks failed');
    expect(code).toBe(1);
  });
});
