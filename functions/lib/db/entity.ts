// The declarative description of a stored entity, and the generic repository contract
// every feature's store builds on. See docs/data-model.md for the table and its indexes.
//
// Single table (TABLE_NAME):
//   item           pk = `${type}#${id}`          sk = 'item'
//   id counter     pk = `counter#${type}`        sk = 'counter'   (atomic ADD seq)
//   unique value   pk = `unique#${type}#${field}#${value}`  sk = 'unique'  (a claim, e.g. site name)
//   GSI byType     gsi1pk = type                                  gsi1sk = timeKey
//   GSI byParent   gsi2pk = `${type}:${field}=${value}`           gsi2sk = timeKey
//   GSI byParent2  gsi3pk = `${type}:${field}=${value}`           gsi3sk = timeKey
//   timeKey        = created_at zero-padded to 13 digits + '#' + id zero-padded to 12 digits,
//                    so key order is creation order and a created_at range is a key condition.
//   TTL            expires_at (epoch seconds) on log rows.
// Searchable text fields get a lower-cased shadow attribute `_lc_${field}` so that keyword
// and text filters are case-insensitive `contains` in DynamoDB itself.

import type { ListFields, ListQuery, ListResult } from '../../../shared/listQuery.js';

export interface EntityDef<T extends { id: number; created_at: number }> {
  /** Entity type, e.g. 'site'. Also the list name. */
  type: string;
  /** Listable fields and their filter types (usually imported from shared/). */
  fields: ListFields;
  /** Text fields that are filtered/searched case-insensitively (get `_lc_` shadows). */
  searchable?: readonly (keyof T & string)[];
  /** Foreign-id fields served by a GSI key condition, e.g. { byParent: 'task_id', byParent2: 'subtask_id' }. */
  parents?: { byParent?: keyof T & string; byParent2?: keyof T & string };
  /** Soft-deleted rows are stored with `deleted: 1` and never listed or read through the repository. */
  softDelete?: boolean;
  /** Seconds a row lives (sets `expires_at`), e.g. for log rows. */
  ttlSeconds?: number;
  /** Fields never returned by list/get (e.g. encrypted secrets are returned only by explicit reads). */
  hidden?: readonly string[];
}

export function defineEntity<T extends { id: number; created_at: number }>(def: EntityDef<T>): EntityDef<T> {
  return def;
}

export interface ListOptions {
  /** Equality scope applied as a key condition when it names a parent field, e.g. { task_id: 7 }. */
  scope?: Record<string, string | number | boolean>;
}

export interface ListOutcome<T> extends ListResult<T> {
  /** Read capacity units the list consumed (all pages and the count). */
  consumed_rcu: number;
}

export interface UpdateOptions {
  /**
   * Extra condition, as a map of field -> expected value, checked atomically with the write.
   * A failed condition throws ConditionFailedError.
   */
  expect?: Record<string, unknown>;
}

/** The generic repository; features wrap it in their own store (see style.md rule 3). */
export interface Repository<T extends { id: number; created_at: number }> {
  readonly def: EntityDef<T>;
  /** Allocates the next numeric id, stamps created_at/updated_at, writes with a not-exists condition. */
  create(data: Omit<T, 'id' | 'created_at'> & Partial<Pick<T, 'created_at'>>): Promise<T>;
  /** Undefined when missing or soft-deleted. */
  get(id: number): Promise<T | undefined>;
  /** Missing ids are left out; `includeDeleted` also returns soft-deleted rows (history screens show their names). */
  getMany(ids: number[], options?: { includeDeleted?: boolean }): Promise<T[]>;
  /** Sets fields (undefined values are removed), stamps updated_at; returns the new item. Throws NotFound-like ConditionFailedError when missing. */
  update(id: number, patch: Partial<T>, options?: UpdateOptions): Promise<T>;
  /** Atomic counter change, e.g. add(siteId, { available_account_cnt: -1 }). */
  add(id: number, deltas: Partial<Record<keyof T & string, number>>, options?: UpdateOptions): Promise<T>;
  softDelete(id: number): Promise<void>;
  /** Hard delete (log reapers, tests). */
  remove(id: number): Promise<void>;
  list(query: ListQuery, options?: ListOptions): Promise<ListOutcome<T>>;
  /** Every row matching an equality scope, in creation order; for internal use (no paging limits). */
  all(options?: ListOptions): Promise<T[]>;
}

export class ConditionFailedError extends Error {
  override name = 'ConditionFailedError';
}
