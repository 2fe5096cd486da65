import type { WeekdayValue } from '@shared/schemas/autoCheck';
import { timeProblems, type WeekTimes } from './ruleForm';

// The times step's rules (spec section 5): per weekday a list of 'HH:mm' slots; an empty slot says
// 'Fill or delete'; a new slot may be added only while every slot is valid.

/** Slot problems only (key `${day}:${index}`); the step's "no time at all" is not one. */
export function slotProblems(times: WeekTimes): Record<string, string> {
  const { '': _, ...slots } = timeProblems(times);
  return slots;
}

export const canAddSlot = (times: WeekTimes): boolean => Object.keys(slotProblems(times)).length === 0;

/** The week with an empty slot at the end of `day`, or the same week when a slot is not valid yet. */
export function addSlot(times: WeekTimes, day: WeekdayValue): WeekTimes {
  if (!canAddSlot(times)) return times;
  return { ...times, [day]: [...times[day], ''] };
}

export function setSlot(times: WeekTimes, day: WeekdayValue, index: number, value: string): WeekTimes {
  return { ...times, [day]: times[day].map((v, i) => (i === index ? value : v)) };
}

export function removeSlot(times: WeekTimes, day: WeekdayValue, index: number): WeekTimes {
  return { ...times, [day]: times[day].filter((_, i) => i !== index) };
}

/**
 * What the user typed, as 'HH:mm' when it reads as a 24-hour time ('930' / '9:30' -> '09:30',
 * '7' -> '07:00'); anything else is kept as typed, so the schema names the problem.
 */
export function normalizeTime(text: string): string {
  const s = text.trim();
  const m = /^(\d{1,2})(?::?(\d{2}))?$/.exec(s);
  if (!m) return s;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  if (h > 23 || min > 59) return s;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

/** The picker's choices: every quarter of an hour, 00:00 to 23:45 (any minute can be typed). */
export const QUARTER_HOURS: readonly string[] = Array.from({ length: 96 }, (_, i) => {
  const h = Math.floor(i / 4);
  const m = (i % 4) * 15;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
});
