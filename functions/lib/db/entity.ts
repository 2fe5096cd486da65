// The declarative description of a stored entity, and the generic repository contract
// every feature's store builds on. See docs/data-model.md for the table and its indexes.
//
// Single table (TABLE_NAME):
//   item           pk = `${type}#${id}`          sk = 'item'
//   id counter     pk = `counter#${type}`        sk = 'counter'   (atomic ADD seq)
//   row counter    pk = `count#${partition}`     sk = 'count'     (kept count of one index partition;
//                  spread and grouped types share items, partitions.ts listTotalKey)
//   list cursor    pk = `cursor#${type}`         sk = hash of the query + page (short-lived)
//   unique value   pk = `unique#${type}#${field}#${value}`  sk = 'unique'  (a claim, e.g. site name)
//   GSI byType     gsi1pk = type                                  gsi1sk = timeKey
//   slot GSIs      gsiNpk = `${type}:${field}=${value}` (N = 2..7)  gsiNsk = timeKey
//   timeKey        = created_at zero-padded to 13 digits + '#' + id zero-padded to 12 digits,
//                    so key order is creation order and a created_at range is a key condition.
//   TTL            expires_at (epoch seconds) on log rows.
//   partitioning   high-volume types spread byType and enum/boolean slots over time buckets and
//                  shards: gsiNpk = `${base}#b=2026-11-23[#s=k]` (partitions.ts).
// Searchable text fields get a lower-cased shadow attribute `_lc_${field}` so that keyword
// and text filters are case-insensitive `contains` in DynamoDB itself.

import {
  type FieldSpec,
  fieldSpec,
  type ListFields,
  type ListQuery,
  type ListResult,
} from '../../../shared/listQuery.js';
import type { RetentionKind } from '../../../shared/schemas/systemConfig.js';
import type { Partitioning } from './partitioning.js';
import { SLOT_INDEXES } from './tableSchema.js';

export interface EntityDef<T extends { id: number; created_at: number }> {
  /** Entity type, e.g. 'site'. Also the list name. */
  type: string;
  /**
   * The list declaration (shared/schemas): per field its type and what a list may do with it.
   * The engine refuses any sort, filter or search it does not offer.
   */
  fields: ListFields;
  /**
   * Key-served fields, in slot order (byParent, byParent2, byKey3...). Every field the declaration
   * filters by `key` must be here; storage-only scopes (e.g. an `open` flag) may be added.
   * Each slot keeps a row counter, so equality lists on these fields count in one read.
   */
  keys?: readonly (keyof T & string)[];
  /**
   * How new rows get their id: 'counter' (default: 1, 2, 3... one ADD on the type's counter per
   * row) or 'blocks' (ids.ts idFromBlock: a hundred at a time per process) for high-volume rows.
   */
  ids?: 'counter' | 'blocks';
  /** Soft-deleted rows are stored with `deleted: 1` and never listed or read through the repository. */
  softDelete?: boolean;
  /** Seconds a row lives (sets `expires_at`), fixed. */
  ttlSeconds?: number;
  /**
   * The system config's retention this kind of row follows (sets `expires_at` from the days in
   * force when the row is written; see retention.ts). Takes the place of ttlSeconds.
   */
  retention?: RetentionKind;
  /** Fields never returned by list/get (e.g. encrypted secrets are returned only by explicit reads). */
  hidden?: readonly (keyof T & string)[];
  /** Rows a bounded list (filter/search/sort no index serves) reads at most; default READ_BUDGET. */
  readBudget?: number;
  /**
   * Spreads the type's high-volume partitions (byType and its enum/boolean slots) over time
   * buckets and/or write shards (partitions.ts), e.g. `{ bucket: 'day' }` for log rows. Lists,
   * counts and cursors stay O(page); docs/data-model.md gives the write rate each layout sustains.
   */
  partitioning?: Partitioning;
  /**
   * Types written together (a bank statement and its notification, a balance stat and its own)
   * keep their counts in shared items (partitions.ts listTotalKey): a spread partition in its
   * bucket's item of the group, a foreign-id slot (`account_id=3`) in one item of that value for
   * the whole group. Moving the counts of a poll's statements and notifications is then one ADD
   * per shared item, not one per type.
   */
  counterGroup?: string;
}

/** Rows a bounded list reads by default: ~1 MB of log-like rows, one Query page on AWS (~130 RCU). */
export const READ_BUDGET = 2000;

/** A page merges this many shards at most: beyond it a page would read more than it returns. */
export const MAX_SHARDS = 8;

/** Every declared entity, by type: the sweeper and the repair path walk them. */
export const ENTITIES = new Map<string, EntityDef<{ id: number; created_at: number }>>();

export function defineEntity<T extends { id: number; created_at: number }>(def: EntityDef<T>): EntityDef<T> {
  const keys = new Set<string>(def.keys ?? []);
  if (keys.size > SLOT_INDEXES.length) {
    throw new Error(`${def.type}: ${keys.size} key fields, but the table has ${SLOT_INDEXES.length} slot indexes`);
  }
  for (const [field, declared] of Object.entries(def.fields)) {
    const spec = fieldSpec(declared);
    if (spec.filter === 'key' && field !== 'created_at' && !keys.has(field)) {
      throw new Error(`${def.type}: ${field} is declared key-served but has no slot in keys`);
    }
  }
  if (def.counterGroup !== undefined && !/^[a-z][a-z0-9_]*$/.test(def.counterGroup)) {
    throw new Error(`${def.type}: counterGroup must be a lower-case name`);
  }
  const shards = def.partitioning?.shards ?? 1;
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw new Error(`${def.type}: partitioning.shards must be an integer from 1 to ${MAX_SHARDS}`);
  }
  ENTITIES.set(def.type, def as unknown as EntityDef<{ id: number; created_at: number }>);
  return def;
}

/** The declared spec of a field, or undefined when the list does not know it. */
export function specOf(def: { fields: ListFields }, field: string): FieldSpec | undefined {
  const declared = def.fields[field];
  return declared === undefined ? undefined : fieldSpec(declared);
}

/** Text fields that carry a lower-cased shadow (declared `search: true`). */
export function searchableFields(def: { fields: ListFields }): string[] {
  return Object.keys(def.fields).filter((f) => specOf(def, f)?.search);
}

export interface ListOptions {
  /** Equality scope applied as a key condition when it names a parent field, e.g. { task_id: 7 }. */
  scope?: Record<string, string | number | boolean>;
}

export interface ListOutcome<T> extends ListResult<T> {
  /** Read capacity units the list consumed (the page, the count, the cursor). */
  consumed_rcu: number;
}

/** One pending follow-up of a transition: a declared kind and its args (outbox.ts). */
export interface FollowUp {
  kind: string;
  args: Record<string, unknown>;
}

/** Where a write adds its rows' counts to be moved later, once (lib/db/counters.ts CounterBatch). */
export interface KeptCounts {
  add(partitions: Iterable<string>, delta?: number): void;
}

export interface UpdateOptions {
  /**
   * Extra condition, as a map of field -> expected value, checked atomically with the write.
   * A failed condition throws ConditionFailedError.
   */
  expect?: Record<string, unknown>;
  /**
   * The row as the caller last read it, standing in for the read an update that moves a spread
   * row between partitions would make first. The write then also expects created_at and every
   * spread slot field it does not set to hold their basis values: a stale basis fails the write
   * (ConditionFailedError), it never files the row under a wrong partition.
   */
  basis?: object;
  /**
   * The repair of counters kept by `add(..., { once })`: marks these causes counted in the same
   * write, which holds only while the row has counted exactly `seen` causes (none since it was read).
   */
  causes?: { add: string[]; seen: number };
}

/**
 * A transition's options (transition.ts): its write's, and what the write sets in motion, recorded on
 * the row in the same write and applied once in effect.
 */
export interface TransitionOptions extends UpdateOptions {
  /**
   * Follow-ups of this transition (outbox.ts): recorded on the row in the same conditional write,
   * then applied in order before transition returns, and by the sweeper if this process dies first.
   */
  followUps?: FollowUp[];
  /**
   * Lent to the follow-ups applied inline (outbox.ts FollowUpContext): the rows they write add
   * their counts here, moved once by the caller with the rest of its work's.
   */
  followUpCounts?: KeptCounts;
  /**
   * Takes what the write sets in motion (its kept-count moves, then its follow-ups) off the caller's
   * path: transition answers once the row is written and hands `beside` the promise of the rest. For a
   * caller with slower work to start (a checker opening its browser) that awaits the promise before
   * its next transition of the row. It rejects only as update would (a counter move that
   * failed); a failed follow-up is the sweeper's, as always.
   */
  beside?: (rest: Promise<void>) => void;
  /**
   * Hands the follow-ups to their own consumer instead of applying them inline (handOff.ts): update
   * answers once the row is written, its kept counts moved and the row's key sent to the `followUp`
   * queue. For a writer whose time is dear (the checker's slot holds a Chromium). Their order and
   * once-in-effect are as inline: the consumer applies the row's entries oldest first, the sweeper
   * whatever a lost message left.
   */
  handOff?: boolean;
  /**
   * Leaves the follow-ups' entry on the row once applied inline, and hands its name here: the
   * writer's next transition of the row removes it (`clearsApplied`) instead of a clear of its own,
   * one write fewer. Not called when a step failed: that entry is the sweeper's, as always. For a
   * writer that surely transitions the row again soon (a checker's claim, then its end); an entry
   * kept longer than the sweeper's few seconds is applied again (idempotent) and cleared by it.
   */
  keepApplied?: (entry: string) => void;
  /** Entries `keepApplied` handed out earlier, removed by this write (which must record follow-ups of its own). */
  clearsApplied?: readonly string[];
}

export interface AddOptions extends UpdateOptions {
  /**
   * The cause this move counts (e.g. `subtask_end:42`): the ADD is made only if the row has not
   * counted that cause yet, in the same write, so applying a follow-up again never counts twice.
   */
  once?: string;
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
  /**
   * Sets fields (undefined values are removed), stamps updated_at, moves the kept counts of the index
   * partitions the row moved between; returns the new item. Throws NotFound-like ConditionFailedError
   * when missing. Follow-ups of a change are a transition's (transition.ts), not update's.
   */
  update(id: number, patch: Partial<T>, options?: UpdateOptions): Promise<T>;
  /** Atomic counter change, e.g. add(siteId, { available_account_cnt: -1 }). */
  add(id: number, deltas: Partial<Record<keyof T & string, number>>, options?: AddOptions): Promise<T>;
  softDelete(id: number): Promise<void>;
  /** Brings a soft-deleted row back into its lists (and counts). */
  restore(id: number): Promise<void>;
  /** Hard delete (log reapers, tests). */
  remove(id: number): Promise<void>;
  list(query: ListQuery, options?: ListOptions): Promise<ListOutcome<T>>;
  /** Every row matching an equality scope, in creation order; for internal use (no paging limits). */
  all(options?: ListOptions): Promise<T[]>;
}

export class ConditionFailedError extends Error {
  override name = 'ConditionFailedError';
}
