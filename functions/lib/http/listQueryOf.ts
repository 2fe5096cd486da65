import { HEADERS } from '../../../shared/envelope.js';
import { type ListFields, type ListQuery, parseListQuery } from '../../../shared/listQuery.js';
import type { Request } from './router.js';

/**
 * A list route's query: the spec's parameters (parseListQuery), plus the table's hint that it
 * jumped to the page (`x-list-jump: 1`), which changes how the page is read, never what it holds.
 */
export function listQueryOf(req: Request, fields: ListFields): ListQuery {
  const query = parseListQuery(req.query, fields);
  return req.headers[HEADERS.listJump] === '1' ? { ...query, jump: true } : query;
}
