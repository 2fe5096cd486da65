// A page without a cursor (a jump, or a cursor not kept) is read from the nearer end of its list.
// Read from the front, page N costs the N pages before it, so the table's "Last page" of a
// million-row log list would read the million rows. When the list's count is kept and exact, the
// rows after page N are known in number, and reading the list backwards to page N's first row
// costs those rows only: the last page reads one page, whatever the list's size.
//
// The count is the kept counters' (eventually consistent, like every count on screen): while rows
// are being written, a page read from the back may start a row or two off where a read from the
// front would. The last page still shows the oldest rows, which is what it is for.

/** A page read from the back: the rows to read backwards, and where the page sits in them. */
export interface BackwardRead {
  rows: number;
  page: [number, number];
}

/**
 * How to read page `at` (1-based) backwards, or undefined when the front is as near (or the
 * count is not known before the read: `total` undefined, e.g. a range counted within the budget).
 */
export function backwardRead(at: number, size: number, total: number | undefined): BackwardRead | undefined {
  const before = (at - 1) * size;
  if (total === undefined || at === 1) return undefined;
  const fromEnd = Math.max(0, total - before);
  if (fromEnd >= before) return undefined;
  // Backwards, page `at` is the last `min(size, fromEnd)` of the `fromEnd` rows read, in reverse.
  return { rows: fromEnd, page: [Math.max(0, fromEnd - size), fromEnd] };
}

/** Page `at`'s rows in list order, from the rows a backward read returned. */
export function pageOfBackward<T>(read: T[], plan: BackwardRead): T[] {
  return read.slice(plan.page[0], plan.page[1]).reverse();
}
