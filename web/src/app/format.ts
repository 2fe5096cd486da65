// Display formats of spec section 9: local time, '/' for null, SYSTEM for a missing user.
import dayjs from 'dayjs';
import { DATE_FORMAT, DATE_TIME_FORMAT, EMPTY_TEXT, SYSTEM_USER } from './constants';

type Stamp = number | null | undefined;

function valid(ms: Stamp): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0;
}

/** Epoch ms -> 'YYYY-MM-DD HH:mm:ss' in local time; '/' when absent. */
export function formatDateTime(ms: Stamp): string {
  return valid(ms) ? dayjs(ms).format(DATE_TIME_FORMAT) : EMPTY_TEXT;
}

/** Epoch ms -> 'YYYY-MM-DD' in local time; '/' when absent. */
export function formatDate(ms: Stamp): string {
  return valid(ms) ? dayjs(ms).format(DATE_FORMAT) : EMPTY_TEXT;
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
