// Check engine figures on the local stack: 50 sandbox sites x all eight processes in both modes
// (Login once per task: 15 subtasks a site, 750 in all). Check Now goes through the API; the
// checker runs them from the SQS queue in Chromium with recording, storing logs, raw logs and
// videos. Measured: seconds to the first subtask Running, subtasks per minute, subtask duration,
// failures, peak memory of the process tree (Node + Chromium, sampled every second) and video
// KiB per minute, CPU seconds by process and each browser step's median. Then bench/bareRecording.ts
// runs the same checks from a plain script in the same run, against a sandbox site in a process of
// its own as the engine's is; the ratio engine / bare is the engine's overhead. BENCH_SITES=5 for a short run;
// BENCH_ROUNDS=5 for the median of five rounds, each in a process of its own (below).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSharedBrowser } from '../functions/checks/browser/launchBrowser.js';
import { apiCaller } from './apiCaller.js';
import { startLocalStack } from '../scripts/local/stack.js';
import { startApart } from '../scripts/sandbox/apart.js';
import { Process, RunStatus } from '../shared/enums.js';
import type { BareResult } from './bareRecording.js';
import { addStepTimes } from './stepTimes.js';
import { cpuByBetween, cpuTotal, type MemSample, startTreeSampler, treeCpuBy } from './treeSampler.js';

const SITES = Number(process.env.BENCH_SITES ?? 50);
const CONCURRENCY = Number(process.env.CHECKER_CONCURRENCY ?? 4);
const ADMIN_PASSWORD = 'bench-admin-pass-1';
const POINTS = Process.options.map((p) => ({ point: p.value, modes: [1, 3] }));
const benchDir = import.meta.dirname ?? '.';
const TSX = join(benchDir, '../node_modules/.bin/tsx');

// --- figures --------------------------------------------------------------------------------

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
};
const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

interface RunFigures {
  subtasks: number;
  failures: number;
  wall_s: number;
  per_minute: number;
  first_running_s: number | null;
  p50_s: number;
  p95_s: number;
  video_kib_per_min: number;
  video_mib: number;
  video_min: number;
  peak: MemSample;
  load_mean: number;
  /** CPU seconds of the run's process tree (Node, Chromium, the local engines) per subtask. */
  cpu_s_per_subtask: number;
  /** Each browser step's durations by its name (runCheck's step timings): where the two runs' checks differ. */
  step_ms: Record<string, number[]>;
}

// --- the engine run ---------------------------------------------------------------------------

async function engineRun(): Promise<RunFigures & { failure_msgs: string[]; operation_id: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'patrol-bench-checks-'));
  // The sandbox site in a process of its own, as the bare run's: it stands for the remote sites, so
  // its pages are not served from the stack's event loop and its CPU is neither side's.
  const stack = await startLocalStack({
    dataDir,
    secondFactor: 'off', // signs in with the password alone (AUTH_SECOND_FACTOR)
    port: 0,
    demo: false,
    quiet: true,
    adminPassword: ADMIN_PASSWORD,
    sandboxesApart: true,
  });
  try {
    if (!stack.sandboxSiteUrl) throw new Error('the sandbox site did not start');
    const api = apiCaller(stack.url);
    const call = async (method: string, path: string, token?: string, body?: unknown) =>
      (await api(method, path, token, body)).data;
    const token = (
      (await call('POST', '/login', undefined, { username: 'admin', password: ADMIN_PASSWORD })) as {
        jwt: string;
      }
    ).jwt;
    const siteIds: number[] = [];
    for (let i = 1; i <= SITES; i++) {
      const site = (await call('POST', '/sites', token, {
        name: `Bench Sandbox ${i}`,
        url: stack.sandboxSiteUrl,
        accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
      })) as { id: number };
      siteIds.push(site.id);
    }

    // The sampler is a process of its own (treeSampler.ts), left out of the engine's figures.
    const sampler = await startTreeSampler(process.pid);
    const cpuBefore = treeCpuBy(process.pid, sampler.pid);
    const clicked = Date.now();
    const op = (await call('POST', '/sites/check', token, { sites: siteIds, points: POINTS })) as { id: number };
    const answeredMs = Date.now() - clicked;
    console.log(`engine: Check Now answered in ${answeredMs} ms (operation ${op.id}); load average ${loadNow()}`);
    let lastLine = 0;
    for (;;) {
      const detail = (await call('GET', `/operations/${op.id}/tasks`, token)) as {
        operation: { status: number };
        tasks: { task_done: number; task_failed: number; task_total: number }[];
      };
      if (detail.operation.status === RunStatus.values.Done || detail.operation.status === RunStatus.values.Failed)
        break;
      if (Date.now() - lastLine > 30_000) {
        lastLine = Date.now();
        const ended = detail.tasks.reduce((n, t) => n + t.task_done + t.task_failed, 0);
        const total = detail.tasks.reduce((n, t) => n + t.task_total, 0);
        console.log(
          `engine: ${((Date.now() - clicked) / 1000).toFixed(0)} s, ${ended}/${total} subtasks ended; load average ${loadNow()}`,
        );
      }
      // The watcher's own reads (sign-in check, operation, tasks, their sites and accounts: ~6 DynamoDB
      // calls) land in the measured stack; every 5 s is enough, as the figures come from the rows.
      await new Promise((r) => setTimeout(r, 5000));
    }
    const cpuAfter = treeCpuBy(process.pid, sampler.pid);
    const { peak, load_mean } = await sampler.stop();
    const cpuS = cpuTotal(cpuAfter) - cpuTotal(cpuBefore);
    console.log(
      `engine: CPU s by process: ${Object.entries(cpuByBetween(cpuBefore, cpuAfter))
        .map(([part, s]) => `${part} ${s.toFixed(1)}`)
        .join(', ')} (root: this process: API, queues, S3; the sandboxes apart, not counted)`,
    );

    const subtasks = (
      (await call('GET', `/check/subtasks?page_size=0&operation_id=${encodeURIComponent(`=-${op.id}`)}`, token)) as {
        result: { status: number; start_at: number | null; end_at: number | null; msg: string }[];
      }
    ).result;
    // BENCH_TIMELINE=<file>: the engine's subtasks with their start and end, for a look at when its slots idled.
    if (process.env.BENCH_TIMELINE) writeFileSync(process.env.BENCH_TIMELINE, JSON.stringify({ clicked, subtasks }));
    const ran = subtasks.filter((s) => s.start_at !== null && s.end_at !== null);
    const firstStart = Math.min(...ran.map((s) => s.start_at as number));
    const lastEnd = Math.max(...subtasks.map((s) => s.end_at ?? 0));
    const failed = subtasks.filter((s) => s.status === RunStatus.values.Failed);
    const videos = (
      (await call('GET', '/raw/videos?page_size=0', token)) as { result: { size: number; duration_ms: number }[] }
    ).result;
    // The steps of every attempt, from the raw logs the engine stored.
    const rawLogs = (
      (await call('GET', '/raw/logs?page_size=0', token)) as { result: { steps: { name: string; ms: number }[] }[] }
    ).result;
    const step_ms: Record<string, number[]> = {};
    for (const log of rawLogs) addStepTimes(step_ms, log.steps ?? []);
    const bytes = videos.reduce((n, v) => n + v.size, 0);
    const ms = videos.reduce((n, v) => n + v.duration_ms, 0);
    const wall = (lastEnd - clicked) / 1000;
    return {
      operation_id: op.id,
      subtasks: subtasks.length,
      failures: failed.length,
      failure_msgs: [...new Set(failed.map((s) => s.msg))].slice(0, 10),
      wall_s: wall,
      per_minute: subtasks.length / (wall / 60),
      first_running_s: ran.length ? (firstStart - clicked) / 1000 : null,
      p50_s: quantile(
        ran.map((s) => ((s.end_at as number) - (s.start_at as number)) / 1000),
        0.5,
      ),
      p95_s: quantile(
        ran.map((s) => ((s.end_at as number) - (s.start_at as number)) / 1000),
        0.95,
      ),
      video_kib_per_min: bytes / 1024 / (ms / 60_000),
      video_mib: bytes / 2 ** 20,
      video_min: ms / 60_000,
      peak,
      load_mean,
      cpu_s_per_subtask: cpuS / subtasks.length,
      step_ms,
    };
  } finally {
    await stack.stop();
    // The checker's browser belongs to this process, not to the stack: closed before the baseline runs.
    await closeSharedBrowser();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// --- the bare run -------------------------------------------------------------------------------

async function bareRun(): Promise<RunFigures & { failure_msgs: string[] }> {
  const outFile = join(mkdtempSync(join(tmpdir(), 'patrol-bench-bare-')), 'bare.json');
  // A fresh sandbox site in a process of its own, as the engine's was: the stack's is gone.
  const sandbox = await startApart('site', { port: 0 });
  const child = spawn(TSX, [join(benchDir, 'bareRecording.ts')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      SANDBOX_SITE_URL: sandbox.url,
      BENCH_SITES: String(SITES),
      CHECKER_CONCURRENCY: String(CONCURRENCY),
      BARE_OUT: outFile,
    },
  });
  // Its tree's CPU time as sampled while it runs (the engine's is read with its tree whole, at the
  // end): when the script closes its browser, Chromium's helpers may end without their parent
  // waiting for them, and their time never reaches this process's cutime.
  const sampler = await startTreeSampler(child.pid as number);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  const { peak, load_mean, cpu_s: cpuS, cpu_by } = await sampler.stop();
  await sandbox.stop();
  console.log(
    `bare: CPU s by process: ${Object.entries(cpu_by ?? {})
      .map(([part, sec]) => `${part} ${sec.toFixed(1)}`)
      .join(', ')} (root: tsx; others: the script)`,
  );
  if (code !== 0) throw new Error(`bareRecording exited with ${code}`);
  const r = JSON.parse(readFileSync(outFile, 'utf8')) as BareResult;
  rmSync(outFile, { force: true });
  const wall = r.wall_ms / 1000;
  return {
    subtasks: r.subtasks,
    failures: r.failures,
    failure_msgs: r.failure_msgs,
    wall_s: wall,
    per_minute: r.subtasks / (wall / 60),
    first_running_s: null,
    p50_s: quantile(r.durations_ms, 0.5) / 1000,
    p95_s: quantile(r.durations_ms, 0.95) / 1000,
    video_kib_per_min: r.video_bytes / 1024 / (r.video_ms / 60_000),
    video_mib: r.video_bytes / 2 ** 20,
    video_min: r.video_ms / 60_000,
    peak,
    load_mean,
    cpu_s_per_subtask: cpuS / r.subtasks,
    step_ms: r.step_ms,
  };
}

// --- main ----------------------------------------------------------------------------------------

// BENCH_ROUNDS=n runs n rounds and reports the median: on this shared 2-core machine the same code's
// ratio moved 0.84-0.96 between single runs. Each round is a process of its own (a second stack in
// one process ran ~6 % slower, 2026-11-27), and which side goes first alternates, so a drift of the
// machine's speed over minutes does not always fall on the same side.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
/** Set in a round's own process: where it writes its figures, and which side goes first. */
const ROUND_OUT = process.env.BENCH_ROUND_OUT;
const BARE_FIRST = process.env.BENCH_BARE_FIRST === '1';

interface Round {
  engine: Awaited<ReturnType<typeof engineRun>>;
  bare: Awaited<ReturnType<typeof bareRun>>;
}

async function round(): Promise<Round> {
  if (BARE_FIRST) {
    const bare = await bareRun();
    console.log(`bare: done; engine next; load average ${loadNow()}`);
    return { bare, engine: await engineRun() };
  }
  const engine = await engineRun();
  console.log(`engine: done; bare script next; load average ${loadNow()}`);
  return { engine, bare: await bareRun() };
}

/** Runs each round in a fresh process of this file and answers their figures. */
async function rounds(): Promise<Round[]> {
  const dir = mkdtempSync(join(tmpdir(), 'patrol-bench-rounds-'));
  const out: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const file = join(dir, `round-${i}.json`);
    console.log(`\n-- round ${i + 1} of ${ROUNDS}, ${i % 2 ? 'the bare script' : 'the engine'} first`);
    const code = await new Promise<number | null>((done) =>
      spawn(TSX, [join(benchDir, 'checks.bench.ts')], {
        stdio: 'inherit',
        env: { ...process.env, BENCH_ROUNDS: '1', BENCH_ROUND_OUT: file, BENCH_BARE_FIRST: i % 2 ? '1' : '0' },
      }).once('exit', done),
    );
    if (code !== 0) throw new Error(`round ${i + 1} exited with ${code}`);
    out.push(JSON.parse(readFileSync(file, 'utf8')) as Round);
  }
  rmSync(dir, { recursive: true, force: true });
  return out;
}

const ratioOf = (r: Round) => r.engine.per_minute / r.bare.per_minute;

console.log(
  `${SITES} sandbox sites x 8 processes x modes D4+TT = ${SITES * 15} subtasks; checker concurrency ${CONCURRENCY}; load average at start ${loadNow()} (2 cores, shared)`,
);
if (ROUND_OUT) {
  writeFileSync(ROUND_OUT, JSON.stringify(await round()));
  process.exit(0);
}
const all = ROUNDS > 1 ? await rounds() : [await round()];
// The median round by ratio: its figures fill the table.
const { engine, bare } = [...all].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor((all.length - 1) / 2)];
const row = (label: string, f: (x: RunFigures) => string) =>
  console.log(`${label.padEnd(34)} ${f(engine).padStart(12)} ${f(bare).padStart(12)}`);
console.log(`\n${''.padEnd(34)} ${'engine'.padStart(12)} ${'bare'.padStart(12)}`);
row('subtasks (failed)', (x) => `${x.subtasks} (${x.failures})`);
row('wall s', (x) => x.wall_s.toFixed(0));
row('subtasks / min', (x) => x.per_minute.toFixed(1));
row('first subtask Running after, s', (x) => (x.first_running_s === null ? '-' : x.first_running_s.toFixed(2)));
row('subtask duration p50 / p95, s', (x) => `${x.p50_s.toFixed(1)} / ${x.p95_s.toFixed(1)}`);
row('peak tree RSS / PSS, MiB', (x) => `${x.peak.rss_mib.toFixed(0)} / ${x.peak.pss_mib.toFixed(0)}`);
row(
  'peak Node / Chromium RSS, MiB',
  (x) => `${x.peak.node_rss_mib.toFixed(0)} / ${x.peak.chromium_rss_mib.toFixed(0)}`,
);
row('peak PSS per concurrent check, MiB', (x) => (x.peak.pss_mib / CONCURRENCY).toFixed(0));
row('video MiB over min recorded', (x) => `${x.video_mib.toFixed(1)} / ${x.video_min.toFixed(1)}`);
row('video KiB per minute', (x) => x.video_kib_per_min.toFixed(0));
row('CPU s per subtask (whole tree)', (x) => x.cpu_s_per_subtask.toFixed(2));
row('load average (1 min), mean', (x) => x.load_mean.toFixed(1));
// Where the checks themselves differ: each browser step's median in both runs (the engine's from its raw logs).
console.log(`\n${'browser step, p50 ms (n)'.padEnd(34)} ${'engine'.padStart(12)} ${'bare'.padStart(12)}`);
const stepCell = (xs: number[] | undefined) => (xs?.length ? `${quantile(xs, 0.5).toFixed(0)} (${xs.length})` : '-');
for (const name of Object.keys(engine.step_ms).filter((n) => bare.step_ms[n]))
  console.log(
    `${name.slice(0, 34).padEnd(34)} ${stepCell(engine.step_ms[name]).padStart(12)} ${stepCell(bare.step_ms[name]).padStart(12)}`,
  );
const ratio = engine.per_minute / bare.per_minute;
const cpuRatio = bare.cpu_s_per_subtask / engine.cpu_s_per_subtask;
if (all.length > 1) {
  console.log(
    `\n${'round'.padEnd(8)} ${'engine / min'.padStart(12)} ${'bare / min'.padStart(12)} ${'ratio'.padStart(6)}`,
  );
  all.forEach((r, i) => {
    console.log(
      `${String(i + 1).padEnd(8)} ${r.engine.per_minute.toFixed(1).padStart(12)} ${r.bare.per_minute.toFixed(1).padStart(12)} ${ratioOf(r).toFixed(2).padStart(6)}`,
    );
  });
}
console.log(
  `\nengine / bare subtasks per minute: ${ratio.toFixed(2)}${all.length > 1 ? ` (the median of ${all.length} rounds, whose figures the table shows)` : ''}`,
);
console.log(
  `bare / engine CPU seconds per subtask (engine's CPU efficiency, load-independent): ${cpuRatio.toFixed(2)}`,
);
for (const [name, r] of [
  ['engine', engine],
  ['bare', bare],
] as const)
  if (r.failure_msgs.length) console.log(`${name} failures: ${r.failure_msgs.join(' | ')}`);
console.log(`load average at the end: ${loadNow()}`);

const out = join(benchDir, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'checks.json'),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      sites: SITES,
      concurrency: CONCURRENCY,
      engine,
      bare,
      engine_over_bare: ratio,
      bare_over_engine_cpu: cpuRatio,
      rounds: all.map((r) => ({
        engine_per_minute: r.engine.per_minute,
        bare_per_minute: r.bare.per_minute,
        ratio: ratioOf(r),
        bare_over_engine_cpu: r.bare.cpu_s_per_subtask / r.engine.cpu_s_per_subtask,
      })),
    },
    null,
    2,
  ),
);
