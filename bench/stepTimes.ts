/**
 * Adds each step's duration under its name (runCheck's step timings): the check bench sets the
 * engine's per-step medians (from its raw logs) beside the bare script's (from its outcomes).
 */
export function addStepTimes(into: Record<string, number[]>, steps: readonly { name: string; ms: number }[]): void {
  for (const { name, ms } of steps) {
    const times = into[name] ?? [];
    times.push(ms);
    into[name] = times;
  }
}
