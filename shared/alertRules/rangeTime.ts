import { secondOfDay } from '../zoneClock.js';

// `no_statement_for` counts only the time inside the account's monitor ranges (issue 45): a night
// outside them adds nothing, so `no_statement_for > 2h` means two hours of business time. Shared by
// the poll (functions/bank) and the preview (functions/bankAlertRules), so both count alike.

const DAY_S = 86_400;
/** Past this many days of silence the count stops walking day by day: ~a year of ranges is plenty. */
const MAX_DAYS = 400;

/**
 * Milliseconds of [from, to) that fall inside `ranges` (seconds of the day, half-open, in
 * `timeZone`). Walks range edge to range edge: a few steps a day.
 */
export function msInRanges(
  ranges: readonly (readonly [number, number])[],
  from: number,
  to: number,
  timeZone: string,
): number {
  if (to <= from || ranges.length === 0) return 0;
  // All day (the default range): every instant counts, no zone arithmetic needed.
  if (ranges.some(([a, b]) => a <= 0 && b >= DAY_S)) return to - from;
  const start = Math.max(from, to - MAX_DAYS * DAY_S * 1000);
  let inside = 0;
  let t = start;
  while (t < to) {
    // Whole seconds of the wall clock; the fraction of the first second counts with it.
    const sod = secondOfDay(t, timeZone);
    const fraction = t % 1000;
    const hit = ranges.find(([a, b]) => sod >= a && sod < b);
    if (hit) {
      const end = Math.min(to, t - fraction + (hit[1] - sod) * 1000);
      inside += end - t;
      t = end;
      continue;
    }
    // Outside: jump to the next range's start today, or to midnight.
    const next = ranges.reduce((m, [a]) => (a > sod && a < m ? a : m), DAY_S);
    t = t - fraction + (next - sod) * 1000;
  }
  return inside;
}
