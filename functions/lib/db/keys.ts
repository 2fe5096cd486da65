// The table's key layout as the rest of lib/db needs it: the key attributes of each index, which
// attributes belong to storage and never reach a caller, and a slot index's partition key value.

import { type IndexName, OUTBOX_PREFIX, TABLE_INDEXES } from './tableSchema.js';

/** Key attributes of each index, from the one schema definition. */
export const INDEX_KEYS = Object.fromEntries(TABLE_INDEXES.map((i) => [i.name, i])) as Record<
  IndexName,
  (typeof TABLE_INDEXES)[number]
>;

/** Prefix of a searchable field's lower-case shadow (what keyword search reads). */
export const LC_PREFIX = '_lc_';
const INTERNAL = new Set([
  'pk',
  'sk',
  'deleted',
  'expires_at',
  ...TABLE_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey]),
]);

/** Attributes of the storage layout that callers never see nor write. */
export function isInternal(attr: string): boolean {
  return INTERNAL.has(attr) || attr.startsWith(LC_PREFIX) || attr.startsWith(OUTBOX_PREFIX);
}

/** Partition key of a slot index, e.g. 'log_login:task_id=7'. */
export function parentKey(type: string, field: string, value: unknown): string {
  return `${type}:${field}=${String(value)}`;
}
