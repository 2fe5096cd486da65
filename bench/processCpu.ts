// CPU time of a process tree, read from /proc (Linux), for benches whose wall-clock figures the
// machine's load decides: CPU per unit of work does not change with what else runs beside it.
// A snapshot lists every process under the root (the root too) with its user + system time,
// children it reaped included (cutime + cstime); `cpuBetween` gives each process's delta in ms,
// named by what it runs. A process that started after the first snapshot counts from zero; one
// that ended before the second is lost (the engines and consumers outlive a measured window).

import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

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
  ppid: number;
  /** What the process runs, from its command line (see `nameOf`). */
  name: string;
  /** user + system, its reaped children's included, in ms. */
  ms: number;
}

/** Names a process by its command line, so a figure says which engine or consumer it is. */
export type Namer = (pid: number, cmdline: string) => string | undefined;

function stat(pid: number): { ppid: number; ms: number } | undefined {
  const text = safe(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (!text) return undefined;
  // The command name is in parentheses and may hold spaces: fields count from after its ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After ')': state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17), 1-based over the whole line.
  const at = (field: number) => Number(f[field - 3]);
  return { ppid: at(4), ms: (at(14) + at(15) + at(16) + at(17)) * TICK_MS };
}

/** Every process under `root` (root included), with its CPU so far. */
export function cpuSnapshot(root: number, name: Namer): Map<number, ProcessCpu> {
  const all = new Map<number, { ppid: number; ms: number }>();
  for (const entry of safe(() => readdirSync('/proc')) ?? []) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s) all.set(Number(entry), s);
  }
  const inTree = new Set<number>([root]);
  // Parents may have larger pids than children after pid wrap-around: repeat until nothing joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of all)
      if (!inTree.has(pid) && inTree.has(s.ppid)) {
        inTree.add(pid);
        grew = true;
      }
  }
  const out = new Map<number, ProcessCpu>();
  for (const pid of inTree) {
    const s = all.get(pid);
    if (!s) continue;
    const cmdline = safe(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')) ?? '';
    out.set(pid, { pid, ppid: s.ppid, ms: s.ms, name: name(pid, cmdline) ?? 'other' });
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
