import { DAY_SECONDS } from '../../shared/schemas/bank.js';
import { secondOfDay } from '../../shared/zoneClock.js';

// When an account is polled: every `interval` seconds of the day (in the configured time zone),
// at its own phase inside the interval, at the seconds that fall inside one of its monitor ranges.
// The phase spreads accounts over their interval (500 accounts at 5 s: 100 polls each second, not
// 500 every fifth second, which the bank bench measured as a ~3 s drain). The zone conversion is the
// one zone clock's (shared/zoneClock.ts); from one converted instant the next seconds follow by
// counting (a DST jump inside a 65-second window shifts at most that window's polls, and
// Asia/Yangon has none).

/** The range [start, end) holding `sod`, or undefined. Ranges are half-open: 10:00:00-10:01:00 ends before 10:01:00. */
export function rangeAt(ranges: readonly (readonly [number, number])[], sod: number): [number, number] | undefined {
  const hit = ranges.find(([start, end]) => sod >= start && sod < end);
  return hit ? [hit[0], hit[1]] : undefined;
}

/** What decides an account's poll instants. */
export interface PollTiming {
  id: number;
  monitor_interval: number;
  monitor_range: readonly (readonly [number, number])[];
}

/** The account's second inside its interval (by id: consecutive accounts take consecutive seconds). */
export const pollPhase = (account: Pick<PollTiming, 'id' | 'monitor_interval'>): number =>
  account.id % account.monitor_interval;

const isPollSecond = (account: PollTiming, sod: number): boolean =>
  (sod + account.monitor_interval - pollPhase(account)) % account.monitor_interval === 0 &&
  rangeAt(account.monitor_range, sod) !== undefined;

/**
 * The polls of one account due in [from, to): whole seconds whose second-of-day is the account's
 * phase plus a multiple of its interval, inside a range.
 */
export function duePolls(account: PollTiming, from: number, to: number, timeZone: string): number[] {
  const first = Math.ceil(from / 1000) * 1000;
  if (first >= to || account.monitor_range.length === 0) return [];
  const sod0 = secondOfDay(first, timeZone);
  const out: number[] = [];
  for (let t = first, k = 0; t < to; t += 1000, k++) {
    const sod = (sod0 + k) % DAY_SECONDS;
    if (isPollSecond(account, sod)) out.push(t);
  }
  return out;
}

/** True when `due` (ms) is one of the account's poll instants with its current interval and ranges. */
export function isDueInstant(account: PollTiming, due: number, timeZone: string): boolean {
  return isPollSecond(account, secondOfDay(due, timeZone));
}

/**
 * When the account's current stretch inside a range began (ms), or undefined outside its ranges.
 * Staleness counts from here, so an account is not stale the moment its range opens.
 */
export function rangeEnteredAt(
  ranges: readonly (readonly [number, number])[],
  now: number,
  timeZone: string,
): number | undefined {
  const sod = secondOfDay(now, timeZone);
  const range = rangeAt(ranges, sod);
  if (!range) return undefined;
  return Math.floor(now / 1000) * 1000 - (sod - range[0]) * 1000;
}
