// CPU time of a process tree, read from /proc (Linux), for benches whose wall-clock figures the
// machine's load decides: CPU per unit of work does not change with what else runs beside it.
// `cpuMsOf` is the one reader of a process's CPU (user + system, its reaped children's included:
// Chromium's renderers, a closed browser). A snapshot lists every process under the root (the root
// too), named by what it runs, and `cpuBetween` gives each name's delta in ms (the bank bench);
// treeSampler.ts groups the same readings into the check bench's parts. A process that started
// after the first snapshot counts from zero; one that ended before the second is lost (the engines
// and consumers outlive a measured window).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { processTree } from '../scripts/tools/processTree.js';

const TICK_MS = 1000 / Number(safe(() => execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100);

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

export interface ProcessCpu {
  pid: number;
  /** What the process runs, from its command line (see `Namer`). */
  name: string;
  /** user + system, its reaped children's included, in ms. */
  ms: number;
}

/** Names a process by its command line, so a figure says which engine or consumer it is. */
export type Namer = (pid: number, cmdline: string) => string | undefined;

/** A process's CPU so far in ms: user + system, and that of its children it waited for; undefined once gone. */
export function cpuMsOf(pid: number): number | undefined {
  const text = safe(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (!text) return undefined;
  // The command name is in parentheses and may hold spaces: fields count from after its ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After ')': utime(14) stime(15) cutime(16) cstime(17), 1-based over the whole line (f[0] is field 3).
  const at = (field: number) => Number(f[field - 3]);
  return (at(14) + at(15) + at(16) + at(17)) * TICK_MS;
}

/** Every process under `root` (root included), with its CPU so far. */
export function cpuSnapshot(root: number, name: Namer): Map<number, ProcessCpu> {
  const out = new Map<number, ProcessCpu>();
  for (const pid of processTree(root)) {
    const ms = cpuMsOf(pid);
    if (ms === undefined) continue;
    const cmdline = safe(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')) ?? '';
    out.set(pid, { pid, ms, name: name(pid, cmdline) ?? 'other' });
  }
  return out;
}

/** CPU ms each named group used between two snapshots, and the total. */
export function cpuBetween(before: Map<number, ProcessCpu>, after: Map<number, ProcessCpu>): Record<string, number> {
  const by: Record<string, number> = {};
  let total = 0;
  for (const [pid, p] of after) {
    const ms = p.ms - (before.get(pid)?.ms ?? 0);
    by[p.name] = (by[p.name] ?? 0) + ms;
    total += ms;
  }
  return { ...by, total };
}
