import { DAY_SECONDS } from '../../shared/schemas/bank.js';

// When an account is polled: at the seconds of the day (in the configured time zone) that are a
// multiple of its interval and fall inside one of its monitor ranges. The zone conversion is
// Intl's; from one converted instant the next seconds follow by counting (a DST jump inside a
// 65-second window shifts at most that window's polls, and Asia/Yangon has none).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Seconds since midnight in `timeZone` at the instant `ms` (whole seconds). */
export function secondOfDay(ms: number, timeZone: string): number {
  let h = 0;
  let m = 0;
  let s = 0;
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type === 'hour') h = Number(part.value);
    else if (part.type === 'minute') m = Number(part.value);
    else if (part.type === 'second') s = Number(part.value);
  }
  return h * 3600 + m * 60 + s;
}

/** The range [start, end) holding `sod`, or undefined. Ranges are half-open: 10:00:00-10:01:00 ends before 10:01:00. */
export function rangeAt(ranges: readonly (readonly [number, number])[], sod: number): [number, number] | undefined {
  const hit = ranges.find(([start, end]) => sod >= start && sod < end);
  return hit ? [hit[0], hit[1]] : undefined;
}

export interface DuePoll {
  /** The instant the poll is due (ms, a whole second). */
  due: number;
}

/**
 * The polls of one account due in [from, to): whole seconds whose second-of-day is a multiple of
 * `interval` and inside a range.
 */
export function duePolls(
  account: { monitor_interval: number; monitor_range: readonly (readonly [number, number])[] },
  from: number,
  to: number,
  timeZone: string,
): number[] {
  const first = Math.ceil(from / 1000) * 1000;
  if (first >= to || account.monitor_range.length === 0) return [];
  const sod0 = secondOfDay(first, timeZone);
  const out: number[] = [];
  for (let t = first, k = 0; t < to; t += 1000, k++) {
    const sod = (sod0 + k) % DAY_SECONDS;
    if (sod % account.monitor_interval === 0 && rangeAt(account.monitor_range, sod)) out.push(t);
  }
  return out;
}

/** True when `due` (ms) is one of the account's poll instants with its current interval and ranges. */
export function isDueInstant(
  account: { monitor_interval: number; monitor_range: readonly (readonly [number, number])[] },
  due: number,
  timeZone: string,
): boolean {
  const sod = secondOfDay(due, timeZone);
  return sod % account.monitor_interval === 0 && rangeAt(account.monitor_range, sod) !== undefined;
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
