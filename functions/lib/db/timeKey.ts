// The sort key of every index. Zero-padded so that string order is numeric order: key order is
// creation order, and a created_at range is a key condition (no filter, no wasted reads).

const TIME_DIGITS = 13; // epoch ms until the year 2286
const ID_DIGITS = 12;

export function timeKey(createdAt: number, id: number): string {
  return `${pad(createdAt, TIME_DIGITS)}#${pad(id, ID_DIGITS)}`;
}

/**
 * Inclusive key bounds for a created_at range in ms. '#' < digits < '~', so `start#` sorts before
 * every key of that millisecond and `end#~` after every one.
 */
export function timeKeyBounds(start?: number, end?: number): { low?: string; high?: string } {
  return {
    low: start === undefined ? undefined : `${pad(start, TIME_DIGITS)}#`,
    high: end === undefined ? undefined : `${pad(end, TIME_DIGITS)}#~`,
  };
}

function pad(n: number, digits: number): string {
  // Clamp so a stray negative or fractional stamp still yields a well-formed, ordered key.
  return String(Math.max(0, Math.floor(n))).padStart(digits, '0');
}
