import { HEADERS } from '../../../shared/envelope.js';
import type { ListResult } from '../../../shared/listQuery.js';
import type { ListOutcome } from '../db/entity.js';
import type { Request } from './router.js';

/** Puts a list on the wire in the spec's shape and reports its read units in a header for the bench. */
export function listReply<T>(req: Request, outcome: ListOutcome<T>): ListResult<T> {
  req.setHeader(HEADERS.consumedCapacity, String(outcome.consumed_rcu));
  const { consumed_rcu: _, ...list } = outcome;
  return list;
}
