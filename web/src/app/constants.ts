// Constants of spec section 9 that only the web uses, in one place so screens never spell a number
// twice. Those the server shares come from shared/: list bounds (listQuery.ts), password bounds
// (schemas/common.ts), codes (enums.ts) and the rest (constants.ts).

/** Every API call gives up after this long (spec: 30 s). */
export const API_TIMEOUT_MS = 30_000;
/** A lazily loaded screen that has not arrived by then is reported as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** The top loading bar lingers this long after the last request ends, so bursts do not flicker. */
export const LOADING_BAR_HIDE_DELAY_MS = 200;
export const LOADING_BAR_HEIGHT_PX = 2;
export const LOADING_BAR_COLOR = '#e81123';

export const TOAST_TIMEOUT_MS = 1500;
/** Web-push toasts stay until the user closes them. */
export const PUSH_TOAST_TIMEOUT_MS = 0;

export const AUTO_REFRESH_MS = 5000;
export const SEARCH_DEBOUNCE_MS = 300;
/** Date/time pickers close themselves this long after a choice. */
export const PICKER_AUTO_CLOSE_MS = 1000;

export type RecentUnit = 'minute' | 'hour' | 'day' | 'week' | 'month';
export interface RecentRange {
  unit: RecentUnit;
  amount: number;
}
export const RECENT_RANGE_CHOICES: Readonly<Record<RecentUnit, readonly number[]>> = {
  minute: [1, 5, 10, 30],
  hour: [1, 3, 6, 12],
  day: [1, 3, 7, 15],
  week: [1, 2, 3, 4],
  month: [1, 3, 6],
};
export const DEFAULT_RECENT_RANGE: RecentRange = { unit: 'minute', amount: 5 };

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DATE_FORMAT = 'YYYY-MM-DD';
export const TIME_FORMAT = 'HH:mm';
export const TIME_WITH_SECONDS_FORMAT = 'HH:mm:ss';
/** Sunday, as the spec's pickers start the week. */
export const FIRST_DAY_OF_WEEK = 0;
/** What a null date, user or value shows. */
export const EMPTY_TEXT = '/';
/** Creator/operator/sender without a user. */
export const SYSTEM_USER = 'SYSTEM';

export const SECONDS_PER_DAY = 86_400;
export const SECONDS_PER_HOUR = 3600;

export const DEFAULT_LOCALE = 'zh';
