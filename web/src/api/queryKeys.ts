// The one query-key factory: lists, details and invalidations all build keys here, so a refresh
// after a change cannot miss a list by spelling its key differently. Keys nest, widest first:
// `[name]` ⊃ `[name, 'list']` ⊃ `[name, 'list', params]`; invalidating a prefix refreshes all below.
import { type ListQuery, serializeListQuery } from '@shared/listQuery';

export const queryKeys = {
  /** Everything cached for a resource. */
  all: (name: string) => [name] as const,
  /** Every list of a resource, whatever its page, sort or filters. */
  lists: (name: string) => [name, 'list'] as const,
  /** One list request; the wire params make the key, so equal queries share a cache entry. */
  list: (name: string, query: ListQuery) => [name, 'list', serializeListQuery(query)] as const,
  /** One record by id. */
  detail: (name: string, id: number | string) => [name, 'detail', id] as const,
  /** A record without an id (the signed-in user's profile). */
  single: (name: string) => [name, 'detail'] as const,
  /** Rows of a resource that belong to a parent, e.g. `related('subtasks', 'check-results', 4)`. */
  related: (name: string, relation: string, id: number | string) => [name, relation, id] as const,
};
