// CPU time of processes, in nanoseconds, from Linux's scheduler statistics: each thread's
// `/proc/<pid>/task/<tid>/schedstat` (its first field is the time it ran), summed over the
// process's threads (the main thread, libuv's pool, V8's GC helpers). Unlike wall time, it does not
// stretch when other work shares the machine, so a bench on a loaded machine still says what one
// request costs. Linux only; elsewhere every reading is 0.

import { readdirSync, readFileSync } from 'node:fs';

/** The CPU time process `pid` has used so far (ns); 0 when it is gone or this is not Linux. */
export function cpuNs(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let ns = 0;
  for (const tid of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return ns;
}

/** The child processes of `parent` whose command line holds `marker` (e.g. the dynalite child). */
export function childPids(parent: number, marker: string): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return found;
  }
  for (const pid of entries) {
    try {
      // `pid (comm) state ppid ...`: comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
