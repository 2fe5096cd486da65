// Display formats of spec section 9: '/' for null, SYSTEM for a missing user. Times show in the
// system config's time zone (issue 12) once the shell knows it, in the browser's zone before.
import { wallClock } from '@shared/zoneClock';
import dayjs from 'dayjs';
import { DATE_FORMAT, DATE_TIME_FORMAT, EMPTY_TEXT, SYSTEM_USER } from './constants';

type Stamp = number | null | undefined;

function valid(ms: Stamp): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0;
}

// Set by the shell from the system config; cells format outside React, so this is module state.
let displayZone: string | undefined;

/** The zone times are shown in (undefined: the browser's). */
export function displayTimeZone(): string | undefined {
  return displayZone;
}

export function setDisplayTimeZone(zone: string | undefined): void {
  displayZone = zone;
}

/**
 * Epoch ms -> 'YYYY-MM-DD HH:mm:ss' (or 'YYYY-MM-DD' with `dateOnly`) in `zone`, the configured
 * display zone by default; '/' when absent.
 */
export function formatInZone(ms: Stamp, zone: string | undefined = displayZone, dateOnly = false): string {
  if (!valid(ms)) return EMPTY_TEXT;
  if (!zone) return dayjs(ms).format(dateOnly ? DATE_FORMAT : DATE_TIME_FORMAT);
  const w = wallClock(ms, zone);
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${w.year}-${two(w.month)}-${two(w.date)}`;
  return dateOnly ? date : `${date} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/** Epoch ms -> 'YYYY-MM-DD HH:mm:ss' in the display zone; '/' when absent. */
export function formatDateTime(ms: Stamp): string {
  return formatInZone(ms);
}

/** Epoch ms -> 'YYYY-MM-DD' in the display zone; '/' when absent. */
export function formatDate(ms: Stamp): string {
  return formatInZone(ms, displayZone, true);
}

/** Creator, operator or sender: the nickname, or SYSTEM when there is none. */
export function userName(ref: { nickname?: string | null } | null | undefined): string {
  const name = ref?.nickname?.trim();
  return name ? name : SYSTEM_USER;
}

const thousands = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Response timings in ms: '1,234' (the column header names the unit). */
export function formatMs(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isFinite(n) ? thousands.format(n) : EMPTY_TEXT;
}

const kib = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Video sizes are shown in Kib: '12.5 Kib'. */
export function formatKib(bytes: number | null | undefined): string {
  return typeof bytes === 'number' && Number.isFinite(bytes) ? `${kib.format(bytes / 1024)} Kib` : EMPTY_TEXT;
}

/** Durations are shown in seconds. */
export function formatSeconds(ms: number | null | undefined): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? `${kib.format(ms / 1000)} s` : EMPTY_TEXT;
}

/** Any value for a cell: '/' for null/undefined/empty. */
export function orEmpty(value: unknown): string {
  return value === null || value === undefined || value === '' ? EMPTY_TEXT : String(value);
}
