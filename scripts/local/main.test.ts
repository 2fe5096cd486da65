import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './loadHandler.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const parentDir = await mkdtemp(join(tmpdir(), 'patrol-main-'));
// Not created yet: the first start creates it.
const dataDir = join(parentDir, 'data');
afterAll(() => rm(parentDir, { recursive: true, force: true }));

// A failed assertion must not leave a stack running: it would hold DATA_DIR for the next test.
const children: ChildProcessWithoutNullStreams[] = [];
function startMain(env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/local/main.ts'], { cwd: REPO_ROOT, env });
  children.push(child);
  return child;
}
/** How the child ends: its exit code, or the signal that ended it. */
const outcome = (child: ChildProcessWithoutNullStreams) =>
  new Promise<string>((r) => child.once('exit', (code, signal) => r(`${code ?? signal}`)));
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }
});

describe('npm start (scripts/local/main.ts)', () => {
  it('serves health within 60 s, prints the generated admin password once, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO: '0' };
    delete env.ADMIN_PASSWORD;
    const started = Date.now();
    const child = startMain(env);
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    const exited = outcome(child);

    let health = 0;
    while (Date.now() - started < 60_000 && child.exitCode === null) {
      health = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.status,
        () => 0,
      );
      if (health === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const msToHealth = Date.now() - started;
    console.log(`main.ts: health after ${msToHealth} ms`);
    expect(health, output).toBe(200);
    expect(msToHealth).toBeLessThan(60_000);

    await expect.poll(() => output, { timeout: 10_000 }).toContain('Patrol is running at');
    const password = (await readFile(join(dataDir, 'admin-password.txt'), 'utf8')).trim();
    expect(password).toMatch(/^\S{6,40}$/);
    expect(output).toContain(`admin / ${password}`);
    expect(output).toContain(`http://127.0.0.1:${port}`);
    // It holds the keys and every stored secret: its owner's only.
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    for (const key of ['jwt.key', 'secrets.key']) expect((await stat(join(dataDir, key))).mode & 0o777).toBe(0o600);

    child.kill('SIGTERM');
    expect(await exited, output).toBe('0');
  }, 90_000);

  it('does not print the password again on the next start of the same DATA_DIR', async () => {
    const port = await freePort();
    const child = startMain({
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO: '0',
      ADMIN_PASSWORD: 'ignored-now',
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      errors += c;
    });
    const exited = outcome(child);
    await expect.poll(() => output, { timeout: 60_000 }).toContain('Patrol is running at');
    const password = (await readFile(join(dataDir, 'admin-password.txt'), 'utf8')).trim();

    expect(output).not.toContain(password);
    expect(output).toContain('admin-password.txt');

    child.kill('SIGTERM');
    expect(await exited, `${output}\n${errors}`).toBe('0');
  }, 90_000);

  it('refuses to start on a key file that others can read', async () => {
    const keyFile = join(dataDir, 'jwt.key');
    await chmod(keyFile, 0o644);
    try {
      const child = startMain({ ...process.env, PORT: String(await freePort()), DATA_DIR: dataDir, DEMO: '0' });
      let output = '';
      child.stderr.on('data', (c) => {
        output += c;
      });
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      expect(code).toBe(1);
      expect(output).toContain(`Key file ${keyFile} is readable by others (mode 644)`);
    } finally {
      await chmod(keyFile, 0o600);
    }
  }, 60_000);

  it('refuses an ADMIN_PASSWORD the password rule refuses', async () => {
    const child = startMain({ ...process.env, ADMIN_PASSWORD: 'short', DATA_DIR: dataDir });
    let output = '';
    child.stderr.on('data', (c) => {
      output += c;
    });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(output).toContain('ADMIN_PASSWORD: min length is 6');
  }, 30_000);

  it('refuses a PORT that is not a port number', async () => {
    const child = startMain({ ...process.env, PORT: 'eighty', DATA_DIR: dataDir });
    let output = '';
    child.stderr.on('data', (c) => {
      output += c;
    });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(output).toContain('PORT must be a port number');
  }, 30_000);
});
