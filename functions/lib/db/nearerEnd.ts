// A page without a cursor (a jump, or a cursor not kept) is read from the nearer end of its list.
// Read from the front, page N costs the N pages before it, so the table's "Last page" of a
// million-row log list would read the million rows. When the list's count is kept and exact, the
// rows after page N are known in number, and reading the list backwards to page N's first row
// costs those rows only: the last page reads one page, whatever the list's size.
//
// The count is the kept counters' (eventually consistent, like every count on screen): while rows
// are being written, a page read from the back may start a row or two off where a read from the
// front would. The last page still shows the oldest rows, which is what it is for.

/** How a page without a cursor is read: the rows to read and, backwards, where the page sits in them. */
export type PageRead = { backward: false; rows: number } | { backward: true; rows: number; page: [number, number] };

/**
 * `total`: the list's exact count, or undefined when it is not known before the read (a range
 * counted within the budget). `at` is 1-based.
 */
export function pageRead(at: number, size: number, total: number | undefined): PageRead {
  const before = (at - 1) * size;
  if (total === undefined || at === 1) return { backward: false, rows: at * size };
  const fromEnd = Math.max(0, total - before);
  if (fromEnd >= before) return { backward: false, rows: at * size };
  // Backwards, page `at` is the last `min(size, fromEnd)` of the `fromEnd` rows read, in reverse.
  return { backward: true, rows: fromEnd, page: [Math.max(0, fromEnd - size), fromEnd] };
}

/** Page `at`'s rows in list order, from the rows a backward read returned. */
export function pageOfBackward<T>(read: T[], plan: Extract<PageRead, { backward: true }>): T[] {
  return read.slice(plan.page[0], plan.page[1]).reverse();
}
