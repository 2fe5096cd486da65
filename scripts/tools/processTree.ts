// The processes a measurement counts: a root and everything it started (Node, Chromium and its
// helpers), read from /proc. Used by the check bench and the checker measurement script.
import { readdirSync, readFileSync } from 'node:fs';

/** `root` and all its descendants, parents before children. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}
