// The Generate now form: a period and its first day, checked by the server's own schema (a week
// starts on a Monday, a month on the 1st) and refused before sending when the period has not ended
// yet in the configured zone, which the server would refuse too.
import { addDays } from '@shared/calendarDay';
import { NewReportBody, ReportMessages, type ReportPeriodValue } from '@shared/schemas/reports';
import { checkWith } from '@/components/dialog/checkWith';
import type { FormCheck } from '@/components/dialog/useFormDialog';

export interface NewReportForm {
  period: ReportPeriodValue;
  /** The period's first day, 'YYYY-MM-DD'; '' while none is picked. */
  start: string;
}

/** 'YYYY-MM-DD' naming a real day. */
function isCalendarDay(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}

/** 1 (Monday) … 7 (Sunday) of a calendar day. */
const isoWeekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/** The day after the period that starts on `start` (a month's: the 1st of the next). */
export function periodEndExclusive(period: ReportPeriodValue, start: string): string {
  if (period === 'day') return addDays(start, 1);
  if (period === 'week') return addDays(start, 7);
  const [y, m] = start.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/** The first day of the latest period that has ended by `today`: yesterday, last week's Monday, last month's 1st. */
export function latestStart(period: ReportPeriodValue, today: string): string {
  if (period === 'day') return addDays(today, -1);
  if (period === 'week') return addDays(today, -(isoWeekday(today) - 1) - 7);
  const [y, m] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
}

/** What the picker says under it for each period. */
export const START_HINTS: Record<ReportPeriodValue, string> = {
  day: 'Any day that has ended',
  week: 'A week starts on Monday: pick a Monday',
  month: 'A month starts on the 1st: pick the 1st',
};

export const emptyReportForm = (today: string): NewReportForm => ({
  period: 'week',
  start: latestStart('week', today),
});

/** The body to send, or the first message per field. */
export function checkReportForm(form: NewReportForm, today: string): FormCheck<NewReportForm, NewReportBody> {
  // Not a calendar day: said here, as the schema's date rule cannot be run on it (it throws; told to R).
  if (!isCalendarDay(form.start)) return { errors: { start: ReportMessages.start } };
  const checked = checkWith<NewReportForm, typeof NewReportBody>(NewReportBody, form);
  if (checked.errors) return checked;
  if (periodEndExclusive(form.period, form.start) > today) return { errors: { start: ReportMessages.notPast } };
  return checked;
}
