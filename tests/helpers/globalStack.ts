import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

export interface StackInfo {
  url: string;
  adminPassword: string;
  dataDir: string;
  /** The handlers' environment: engine endpoints, queue URLs, TABLE_NAME, VIDEO_BUCKET... */
  env: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one local stack of this test project. */
    stack: StackInfo;
  }
}

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TEST_ADMIN_PASSWORD = 'admin-test-pass-1';
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 40_000;

/**
 * vitest globalSetup of the integration and e2e projects: one stack, exactly as `npm start`
 * runs it (scripts/local/main.ts), in a child process (its own process.env, so two projects
 * can each have one) on a free port, in a temporary DATA_DIR, without demo data.
 * Its output goes to DATA_DIR/stack.log, printed when the start fails.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), `patrol-${project.name}-`));
  const logFile = join(dataDir, 'stack.log');
  const logFd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/local/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: '0',
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      // Bank webhook delivery at test speed (functions/bankWebhook/retryPolicy.ts): retries at once,
      // 4 attempts, a pause after 5 consecutive failures with no minimum span; a small inbound budget.
      BANK_WEBHOOK_RETRY_BASE_S: '0',
      BANK_WEBHOOK_MAX_ATTEMPTS: '4',
      BANK_WEBHOOK_PAUSE_FAILURES: '5',
      BANK_WEBHOOK_PAUSE_MIN_MS: '0',
      BANK_WEBHOOK_RATE_LIMIT: '30',
      // The e2e browser cannot pick its local address: it plays users behind a trusted proxy on
      // this machine, each page with its own X-Forwarded-For. Integration tests connect from
      // addresses of their own instead (tests/helpers/api.ts `from`) and trust no proxy.
      ...(project.name === 'e2e' ? { TRUSTED_PROXIES: '127.0.0.1' } : {}),
    },
    stdio: ['ignore', logFd, logFd, 'ipc'],
  });

  let ready: { url: string; env: Record<string, string> };
  try {
    ready = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no health within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      child.on('message', (m: { type?: string; url: string; env: Record<string, string> }) => {
        if (m?.type !== 'ready') return;
        clearTimeout(timer);
        resolve(m);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the local stack exited with ${code}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    console.error(`local stack log (${logFile}):\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
    throw error;
  }

  const info: StackInfo = { url: ready.url, adminPassword: TEST_ADMIN_PASSWORD, dataDir, env: ready.env };
  project.provide('stack', info);

  return async () => {
    await stopChild(child);
    if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
