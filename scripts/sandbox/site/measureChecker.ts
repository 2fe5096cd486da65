// Figures for docs/site-driver.md: browser launch, context creation, per-process check time,
// video size, CPU cost of recording and the browser's peak RSS. Run: npx tsx scripts/sandbox/site/measureChecker.ts
import { readFileSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../../functions/checks/browser/launchBrowser';
import { runCheck } from '../../../functions/checks/browser/runCheck';
import type { ProcessValue } from '../../../shared/schemas/checkResults';
import { processTree } from '../../tools/processTree';
import { SANDBOX_PASSWORD, startSandboxSite } from './server';

const TICK = 100; // USER_HZ on Linux

function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {}
  }
  return ticks / TICK;
}

function rssMiB(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {}
  }
  return kb / 1024;
}

const site = await startSandboxSite({ port: 0 });
let t = performance.now();
const browser: Browser = await launchBrowser();
const launchMs = performance.now() - t;
const root = browser.process()!.pid!;
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMiB(processTree(root)));
}, 200);

const ctxMs: number[] = [];
for (let i = 0; i < 10; i++) {
  t = performance.now();
  const c = await browser.createBrowserContext();
  await c.newPage();
  ctxMs.push(performance.now() - t);
  await c.close();
}

const check = (process: ProcessValue, record: boolean, user = 'agent01') =>
  runCheck({
    browser,
    site: { url: site.url },
    account: { user, pwd: SANDBOX_PASSWORD },
    mode: 1,
    process,
    timeoutMs: 30_000,
    record,
  });

const perProcess: Record<string, { plainMs: number; recordedMs: number; videoKiB: number; videoS: number }> = {};
let videoBytes = 0;
let videoMs = 0;
for (const p of [1, 2, 3, 4, 5, 6, 7, 8] as ProcessValue[]) {
  const a = await check(p, false);
  const b = await check(p, true);
  perProcess[p] = {
    plainMs: a.outcome.durationMs,
    recordedMs: b.outcome.durationMs,
    videoKiB: Math.round((b.video?.bytes.length ?? 0) / 1024),
    videoS: (b.video?.durationMs ?? 0) / 1000,
  };
  videoBytes += b.video?.bytes.length ?? 0;
  videoMs += b.video?.durationMs ?? 0;
}

async function cpuOf(record: boolean, n: number) {
  const pids = processTree(root);
  const before = cpuSeconds(processTree(root));
  const nodeBefore = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await check(2, record, `cpu-${record}-${i}`);
  const wall = (performance.now() - t0) / 1000;
  const node = process.cpuUsage(nodeBefore);
  void pids;
  return {
    browserCpuS: cpuSeconds(processTree(root)) - before,
    nodeCpuS: (node.user + node.system) / 1e6,
    wallS: wall,
    n,
  };
}
const plain = await cpuOf(false, 6);
const recorded = await cpuOf(true, 6);

clearInterval(sampler);
await browser.close();
await site.stop();
const avg = (xs: number[]) => Math.round(xs.reduce((s, x) => s + x, 0) / xs.length);
console.log(
  JSON.stringify(
    {
      launchMs: Math.round(launchMs),
      contextMs: { avg: avg(ctxMs), min: Math.round(Math.min(...ctxMs)), max: Math.round(Math.max(...ctxMs)) },
      perProcess,
      videoKiBPerMinute: Math.round(videoBytes / 1024 / (videoMs / 60_000)),
      cpu: { plain, recorded },
      peakBrowserRssMiB: Math.round(peakRss),
    },
    null,
    1,
  ),
);
