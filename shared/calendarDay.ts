// Calendar days in a time zone as 'YYYY-MM-DD' strings: the dashboard's rollups are kept per day
// of the configured zone, and sort and compare as strings.

import { zoneOffset } from './zoneClock.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The day an instant falls on in `zone`. */
export function dayOf(at: number, zone: string): string {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(zone, format);
  }
  return format.format(at);
}

/** The day `n` days after `day` (before, for negative n). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (0 for the same day). */
export function daysBetween(from: string, to: string): number {
  const ms = (day: string) => {
    const [y, m, d] = day.split('-').map(Number);
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((ms(to) - ms(from)) / 86_400_000);
}

/** The instant (epoch ms) `day` begins in `zone`. */
export function dayStart(day: string, zone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  // Twice: the offset at the guess can differ from the one at midnight across a DST change.
  const guess = wall - zoneOffset(wall, zone);
  return wall - zoneOffset(guess, zone);
}
