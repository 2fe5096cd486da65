import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { quietIncidentGrouping } from './alertsConfig.js';
import { startStackProcess, stopStackProcess } from './stackProcess.js';

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

export const TEST_ADMIN_PASSWORD = 'admin-test-pass-1';

/**
 * vitest globalSetup of the integration and e2e projects: one stack, exactly as `npm start`
 * runs it (scripts/local/main.ts), in a child process (its own process.env, so two projects
 * can each have one) on a free port, in a temporary DATA_DIR, without demo data.
 * Its output goes to DATA_DIR/stack.log, printed when the start fails.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), `patrol-${project.name}-`));
  const stack = await startStackProcess({
    dataDir,
    adminPassword: TEST_ADMIN_PASSWORD,
    env: {
      // Bank webhook delivery at test speed (functions/bankWebhook/retryPolicy.ts): retries at once,
      // 4 attempts, a pause after 5 consecutive failures with no minimum span; a small inbound budget.
      BANK_WEBHOOK_RETRY_BASE_S: '0',
      BANK_WEBHOOK_MAX_ATTEMPTS: '4',
      BANK_WEBHOOK_PAUSE_FAILURES: '5',
      BANK_WEBHOOK_PAUSE_MIN_MS: '0',
      BANK_WEBHOOK_RATE_LIMIT: '30',
      // Tests read a dashboard answer right after the write it must show: none is kept and served again
      // (the sharing itself: functions/lib/http/sharedAnswers.test.ts, apiHandler.test.ts).
      SHARED_ANSWERS: 'off',
      // The reports' schedule would send last week's report to whichever test's check chat is set at its
      // first tick (tests/restarts/reports.test.ts tests it on a stack of its own).
      REPORTS_SCHEDULE: 'off',
      // The e2e browser cannot pick its local address: it plays users behind a trusted proxy on
      // this machine, each page with its own X-Forwarded-For. Integration tests connect from
      // addresses of their own instead (tests/helpers/api.ts `from`) and trust no proxy.
      ...(project.name === 'e2e' ? { TRUSTED_PROXIES: '127.0.0.1' } : {}),
    },
  });

  await quietIncidentGrouping(stack.url, TEST_ADMIN_PASSWORD);
  const info: StackInfo = { url: stack.url, adminPassword: TEST_ADMIN_PASSWORD, dataDir, env: stack.env };
  project.provide('stack', info);

  return async () => {
    await stopStackProcess(stack.child);
    if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
  };
}
