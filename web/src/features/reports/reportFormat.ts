// How a report's durations read: '45 s', '12 min', '3 h 05 min', '2 d 4 h'; '/' where none.
import { EMPTY_TEXT } from '@/app/constants';
import { t } from '@/i18n';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A duration in ms, to the minute from a minute on; '/' for null. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return EMPTY_TEXT;
  if (ms < MINUTE) return t('{n} s', { n: Math.round(ms / 1000) });
  if (ms < HOUR) return t('{n} min', { n: Math.round(ms / MINUTE) });
  if (ms < DAY) {
    const minutes = Math.round(ms / MINUTE);
    return t('{h} h {m} min', { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, '0') });
  }
  const hours = Math.round(ms / HOUR);
  return t('{d} d {h} h', { d: Math.floor(hours / 24), h: hours % 24 });
}

/** Whole minutes (maintenance, stale time) as a duration; '0 min' reads better than '/' there. */
export const formatMinutes = (minutes: number) =>
  minutes > 0 ? formatDuration(minutes * MINUTE) : t('{n} min', { n: 0 });
