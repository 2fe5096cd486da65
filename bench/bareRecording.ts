// The baseline of bench/checks.bench.ts: the same checks as the engine runs (per site a Login,
// then the other processes in both modes reusing its session), with the same driver, recorder
// and concurrency, but straight from a script: no DynamoDB, SQS or S3, nothing stored. What the
// engine adds on top of this is its cost. Alone: npx tsx bench/bareRecording.ts
// Env: BENCH_SITES (50), CHECKER_CONCURRENCY (4), SANDBOX_SITE_URL (else one is started here),
// BARE_OUT (a file for the JSON result; else it is printed).

import { writeFileSync } from 'node:fs';
import { launchBrowser } from '../functions/checks/browser/launchBrowser.js';
import { runCheck } from '../functions/checks/browser/runCheck.js';
import type { StoredSession } from '../shared/schemas/checkResults.js';
import type { ProcessValue, TestModeValue } from '../shared/schemas/checks.js';
import { allowedPrivateHostsWith } from '../scripts/local/allowedHosts.js';
import { SANDBOX_PASSWORD, startSandboxSite } from '../scripts/sandbox/site/server.js';
import { addStepTimes } from './stepTimes.js';

const SITES = Number(process.env.BENCH_SITES ?? 50);
const CONCURRENCY = Number(process.env.CHECKER_CONCURRENCY ?? 4);
const TIMEOUT_MS = Number(process.env.CHECK_TIMEOUT_MS ?? 60_000);
const MODES: TestModeValue[] = [1, 3];
const PROCESSES = [2, 3, 4, 5, 6, 7, 8] as ProcessValue[];

export interface BareResult {
  sites: number;
  concurrency: number;
  subtasks: number;
  failures: number;
  failure_msgs: string[];
  wall_ms: number;
  /** Each check from the start of its run to its verdict, video stopped and context closed. */
  durations_ms: number[];
  video_bytes: number;
  video_ms: number;
  videos: number;
  /** Each step's durations by its name (runCheck's step timings), to set beside the engine's. */
  step_ms: Record<string, number[]>;
}

interface Job {
  site: number;
  process: ProcessValue;
  mode: TestModeValue;
  session?: StoredSession;
}

const ownSandbox = process.env.SANDBOX_SITE_URL ? undefined : await startSandboxSite({ port: 0 });
const url = process.env.SANDBOX_SITE_URL ?? (ownSandbox?.url as string);
// The same allow-list as the engine's checker: the guard refuses loopback addresses unless listed,
// and the stack lists its own sandbox (until 2026-11-27 every bare run failed "Refused to open").
process.env.ALLOWED_PRIVATE_HOSTS = allowedPrivateHostsWith([url]);

const started = performance.now();
const browser = await launchBrowser();
// Login first for every site, like the engine's first wave; each login success queues the rest.
const queue: Job[] = Array.from({ length: SITES }, (_, i) => ({ site: i + 1, process: 1 as ProcessValue, mode: 1 }));
const result: BareResult = {
  sites: SITES,
  concurrency: CONCURRENCY,
  subtasks: 0,
  failures: 0,
  failure_msgs: [],
  wall_ms: 0,
  durations_ms: [],
  video_bytes: 0,
  video_ms: 0,
  videos: 0,
  step_ms: {},
};
let running = 0;

async function work(): Promise<void> {
  for (;;) {
    const job = queue.shift();
    if (!job) {
      // Others may still queue a site's follow-ups when their login ends.
      if (running === 0) return;
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    running++;
    const t = performance.now();
    const { outcome, video } = await runCheck({
      browser,
      site: { id: job.site, name: `Bare ${job.site}`, url },
      account: { user: 'agent01', pwd: SANDBOX_PASSWORD },
      mode: job.mode,
      process: job.process,
      session: job.session,
      timeoutMs: TIMEOUT_MS,
      record: true,
    });
    result.durations_ms.push(performance.now() - t);
    result.subtasks++;
    addStepTimes(result.step_ms, outcome.steps);
    if (video) {
      result.video_bytes += video.bytes.length;
      result.video_ms += video.durationMs;
      result.videos++;
    }
    if (!outcome.success) {
      result.failures++;
      if (result.failure_msgs.length < 10) result.failure_msgs.push(outcome.msg);
    }
    if (job.process === 1) {
      for (const process of PROCESSES)
        for (const mode of MODES) {
          // A failed login fails the rest without running them, as the engine does.
          if (outcome.success) queue.push({ site: job.site, process, mode, session: outcome.session });
          else {
            result.subtasks++;
            result.failures++;
          }
        }
    }
    running--;
  }
}

// A long run says how far it is, like the engine run's poll does.
const progress = setInterval(
  () =>
    console.log(
      `bare: ${((performance.now() - started) / 1000).toFixed(0)} s, ${result.subtasks}/${SITES * 15} checks ended`,
    ),
  30_000,
);
await Promise.all(Array.from({ length: CONCURRENCY }, work));
clearInterval(progress);
result.wall_ms = performance.now() - started;
await browser.close();
await ownSandbox?.stop();

const json = JSON.stringify(result);
if (process.env.BARE_OUT) writeFileSync(process.env.BARE_OUT, json);
else
  console.log(
    `${result.subtasks} checks, ${result.failures} failed, ${((result.subtasks / result.wall_ms) * 60_000).toFixed(1)} per minute`,
  );
