import { DEFAULT_RECENT_RANGE as DEFAULT, RECENT_RANGE_CHOICES, type RecentUnit } from '@/app/constants';
import dayjs from 'dayjs';

export interface RecentRange {
  /** Stable key and the English label, e.g. '5 minutes'. */
  key: string;
  amount: number;
  unit: RecentUnit;
}

const keyOf = (amount: number, unit: RecentUnit) => `${amount} ${unit}${amount > 1 ? 's' : ''}`;

/** The recent-range choices of spec section 9, in order. */
export const RECENT_RANGES: RecentRange[] = (Object.entries(RECENT_RANGE_CHOICES) as [RecentUnit, number[]][]).flatMap(
  ([unit, amounts]) => amounts.map((amount) => ({ key: keyOf(amount, unit), amount, unit })),
);

export const DEFAULT_RECENT_RANGE: RecentRange = { ...DEFAULT, key: keyOf(DEFAULT.amount, DEFAULT.unit) };

/** The range ending now; months are calendar months (31 March minus 1 month is 28/29 February). */
export function resolveRecentRange(range: RecentRange, now = Date.now()): { start: number; end: number } {
  return { start: dayjs(now).subtract(range.amount, range.unit).valueOf(), end: now };
}
