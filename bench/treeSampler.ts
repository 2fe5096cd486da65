// The check bench's measurements of a process tree, read from /proc: CPU seconds by part, and
// memory (RSS, PSS) sampled once a second in a process of its own. Reading every process's stat and
// smaps_rollup costs ~0.07-0.09 CPU s a second; done in the bench's process (which is the engine
// stack's) it blocked the stack's event loop ~70 ms a second and was charged to the engine, while
// the bare run's sampler ran outside the bare tree (2026-11-27: 13 of the stack's 17 CPU s).
// startTreeSampler forks this file; the bench leaves the sampler's pid out of what it measures.

import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { processTree } from '../scripts/tools/processTree.js';
import { cpuMsOf } from './processCpu.js';

export interface MemSample {
  rss_mib: number;
  /** Proportional set size: shared pages split between the processes that map them. */
  pss_mib: number;
  node_rss_mib: number;
  chromium_rss_mib: number;
  chromium_procs: number;
}

export interface CpuBy {
  root: number;
  chromium: number;
  checker: number;
  dynalite: number;
  others: number;
}

export interface SamplerResult {
  /** Peaks of each figure (not of one sample) over the sampled time. */
  peak: MemSample;
  load_mean: number;
  /** The tree's CPU seconds at its largest, i.e. the last sample before it was taken down. */
  cpu_s: number;
  cpu_by?: CpuBy;
}

const emptySample = (): MemSample => ({
  rss_mib: 0,
  pss_mib: 0,
  node_rss_mib: 0,
  chromium_rss_mib: 0,
  chromium_procs: 0,
});

function kib(text: string, key: string): number {
  return Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

const isApartSandbox = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sandbox/apartProcess');
  } catch {
    return false;
  }
};

/**
 * `root`'s tree without `exclude` and what it started, and without the sandboxes run apart
 * (scripts/sandbox/apart.ts): they stand for the remote sites both runs check, not for either side.
 */
function treeOf(root: number, exclude?: number): number[] {
  const skipped = new Set(exclude === undefined ? [] : processTree(exclude));
  return processTree(root).filter((pid) => !skipped.has(pid) && !isApartSandbox(pid));
}

function sampleTree(root: number, exclude?: number): MemSample {
  const s = emptySample();
  for (const pid of treeOf(root, exclude)) {
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const rss = kib(rollup, 'Rss') / 1024;
      s.rss_mib += rss;
      s.pss_mib += kib(rollup, 'Pss') / 1024;
      if (/chrom/i.test(comm)) {
        s.chromium_rss_mib += rss;
        s.chromium_procs++;
      } else if (/node|tsx/.test(comm)) s.node_rss_mib += rss;
    } catch {
      // Gone meanwhile.
    }
  }
  return s;
}

/**
 * CPU seconds of a process tree so far by part (each process read by processCpu.ts cpuMsOf): the
 * root process (for the engine: API, queues, S3), Chromium's processes, the checker's consumer
 * process, dynalite, and any other; `exclude` (the sampler) left out.
 */
export function treeCpuBy(root: number, exclude?: number): CpuBy {
  const by: CpuBy = { root: 0, chromium: 0, checker: 0, dynalite: 0, others: 0 };
  for (const pid of treeOf(root, exclude)) {
    try {
      const ms = cpuMsOf(pid);
      if (ms === undefined) continue;
      const s = ms / 1000;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (pid === root) by.root += s;
      else if (/chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8'))) by.chromium += s;
      else if (cmd.includes('consumerProcess')) by.checker += s;
      else if (cmd.includes('dynalite')) by.dynalite += s;
      else by.others += s;
    } catch {
      // Gone meanwhile: its parent's cutime holds it once waited for.
    }
  }
  return by;
}

export const cpuTotal = (by: CpuBy): number => Object.values(by).reduce((a, b) => a + b, 0);

/** CPU seconds of each part between two readings of treeCpuBy (by name instead: processCpu.ts cpuBetween). */
export const cpuByBetween = (before: CpuBy, after: CpuBy): CpuBy =>
  Object.fromEntries(
    Object.entries(after).map(([part, s]) => [part, s - before[part as keyof CpuBy]]),
  ) as unknown as CpuBy;

type ToSampler = { type: 'stop' };
type FromSampler = { type: 'ready' } | { type: 'result'; result: SamplerResult };

/**
 * Samples `root`'s tree once a second in a forked process (its own pid, `pid`, is left out of
 * every figure); stop() answers the peaks, the mean load average and the tree's CPU at its largest.
 */
export async function startTreeSampler(root: number): Promise<{ pid: number; stop(): Promise<SamplerResult> }> {
  const child = fork(fileURLToPath(import.meta.url), [String(root)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: FromSampler) => {
      if (m.type === 'ready') resolve();
    });
  });
  return {
    pid: child.pid as number,
    stop: () =>
      new Promise<SamplerResult>((resolve, reject) => {
        child.on('message', (m: FromSampler) => {
          if (m.type === 'result') resolve(m.result);
        });
        child.once('exit', (code) => reject(new Error(`the tree sampler exited with ${code}`)));
        child.send({ type: 'stop' } satisfies ToSampler);
      }),
  };
}

function runSampler(root: number): void {
  const peak = emptySample();
  const loads: number[] = [];
  let cpuPeak = 0;
  let cpuPeakBy: CpuBy | undefined;
  const tick = () => {
    loads.push(loadavg()[0]);
    try {
      process.kill(root, 0);
    } catch {
      return; // The root has ended: its figures stay as last sampled.
    }
    const s = sampleTree(root, process.pid);
    for (const k of Object.keys(peak) as (keyof MemSample)[]) peak[k] = Math.max(peak[k], s[k]);
    const by = treeCpuBy(root, process.pid);
    if (cpuTotal(by) >= cpuPeak) {
      cpuPeak = cpuTotal(by);
      cpuPeakBy = by;
    }
  };
  const timer = setInterval(tick, 1000);
  process.on('message', (m: ToSampler) => {
    if (m.type !== 'stop') return;
    clearInterval(timer);
    tick();
    const result: SamplerResult = {
      peak,
      load_mean: loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length),
      cpu_s: cpuPeak,
      cpu_by: cpuPeakBy,
    };
    process.send?.({ type: 'result', result } satisfies FromSampler, () => process.exit(0));
  });
  process.send?.({ type: 'ready' } satisfies FromSampler);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) runSampler(Number(process.argv[2]));
