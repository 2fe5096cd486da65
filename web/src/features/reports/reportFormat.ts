// How a report's texts read: its dates, where it went, durations ('45 s', '12 min', '3 h 05 min',
// '2 d 4 h'; '/' where none).
import type { ReportRow } from '@shared/schemas/reports';
import { EMPTY_TEXT } from '@/app/constants';
import { t } from '@/i18n';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** '2026-11-30 – 2026-12-06' (both inclusive), or the one day of a daily report. */
export const periodDates = (r: Pick<ReportRow, 'start' | 'end'>) =>
  r.start === r.end ? r.start : `${r.start} – ${r.end}`;

/** Where the report went ('Telegram -100123'), or that it was never sent. */
export const sentToText = (r: Pick<ReportRow, 'sent_to'>) =>
  r.sent_to.length ? r.sent_to.map((s) => `${t('Telegram')} ${s.chat_id}`).join(', ') : t('Not sent');

/** A duration in ms, rounded to its largest units (59.6 s is '1 min', not '60 s'); '/' for null. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return EMPTY_TEXT;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return t('{n} s', { n: seconds });
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 60) return t('{n} min', { n: minutes });
  if (minutes < 24 * 60)
    return t('{h} h {m} min', { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, '0') });
  const hours = Math.round(ms / HOUR);
  return t('{d} d {h} h', { d: Math.floor(hours / 24), h: hours % 24 });
}

/** Whole minutes (maintenance, stale time) as a duration; '0 min' reads better than '/' there. */
export const formatMinutes = (minutes: number) =>
  minutes > 0 ? formatDuration(minutes * MINUTE) : t('{n} min', { n: 0 });
