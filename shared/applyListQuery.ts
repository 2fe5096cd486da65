import { type ListQuery, type ListResult, matchesFilter } from './listQuery.js';

/**
 * A list query applied to rows held in memory: filters, keyword, sort, page. The server's
 * DynamoDB list engine answers the same queries; this one serves in-memory stores and fake
 * list servers in tests, so both sides of a test read the protocol the same way.
 */
export function applyListQuery<T>(
  rows: readonly T[],
  query: ListQuery,
  read: (row: T, field: string) => unknown = (row, field) => (row as Record<string, unknown>)[field],
): ListResult<T> {
  let result = rows.filter((row) =>
    Object.entries(query.filters).every(([field, filter]) => matchesFilter(read(row, field), filter)),
  );
  if (query.keyword) {
    const keyword = query.keyword.toLowerCase();
    result = result.filter((row) =>
      query.keywordField.some((field) =>
        String(read(row, field) ?? '')
          .toLowerCase()
          .includes(keyword),
      ),
    );
  }
  // Stable sorts from the last key to the first leave the first key deciding.
  for (const { field, order } of [...query.sort].reverse()) {
    const direction = order === 'asc' ? 1 : -1;
    result = [...result].sort((a, b) => {
      const x = read(a, field) as number | string;
      const y = read(b, field) as number | string;
      return x < y ? -direction : x > y ? direction : 0;
    });
  }
  const total_count = result.length;
  if (query.page_size > 0) result = result.slice((query.page - 1) * query.page_size, query.page * query.page_size);
  return { result, total_count, page: query.page, page_size: query.page_size };
}
