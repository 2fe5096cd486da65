import { slotOfWeekStamp, WEEK_S } from '@shared/autoCheckSchedule';
import { Weekday } from '@shared/enums';
import { EMPTY_TEXT } from '@/app/constants';
import { t } from '@/i18n';

/**
 * A week stamp (seconds since Monday 00:00 of the slot's week, spec section 9) as a reader says it:
 * 34200 -> 'Monday 09:30'. Outside the week: '/'.
 */
export function weekStampText(stamp: number | null | undefined): string {
  if (typeof stamp !== 'number' || !Number.isInteger(stamp) || stamp < 0 || stamp >= WEEK_S) return EMPTY_TEXT;
  const slot = slotOfWeekStamp(stamp);
  return `${t(Weekday.label(slot.day))} ${slot.time}`;
}
