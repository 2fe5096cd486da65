// The generic repository over the one table (layout: entity.ts header). Features wrap it in
// their own store and never see keys, shadows or vendor errors.
//
// No TransactWriteItems (dynalite lacks it): every write is one conditional single-item call.
// Invariants that span items (a counter and its rows, a unique claim and its owner) are kept by
// ordering those writes and by the repair paths in docs/data-model.md. Every write that puts a row
// into or takes it out of index partitions then moves those partitions' counters (counters.ts).

import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ListQuery } from '../../../shared/listQuery.js';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import {
  addToCounters,
  byCounterItem,
  COUNT_PREFIX,
  counterItemId,
  moveBetween,
  moveCounters,
  partitionsOf,
} from './counters.js';
import {
  listTotalKey,
  countsOfCounter,
  isGroupCounter,
  parsePartition,
  physicalPartition,
  splitBase,
  spreadOf,
  typeOfPartition,
} from './partitions.js';
import {
  type AddOptions,
  ConditionFailedError,
  type EntityDef,
  type FollowUp,
  type KeptCounts,
  type ListOptions,
  type ListOutcome,
  type Repository,
  searchableFields,
  type UpdateOptions,
} from './entity.js';
import { idFromBlock, nextId, nextIds } from './ids.js';
import { applyRecorded, CAUSES, followUpsOfNewRow, outboxAttributes } from './outbox.js';
import { ttlSecondsOf } from './retention.js';
import { mapLimit } from '../mapLimit.js';
import { onConditionFailure } from './conditionFailure.js';
import { ExpressionBuilder, type Item } from './expr.js';
import { INDEX_KEYS, isInternal, LC_PREFIX, parentKey } from './keys.js';
import { readAllRows, runListQuery, slotValue } from './listEngine.js';
import { SLOT_INDEXES, TTL_ATTRIBUTE } from './tableSchema.js';
import { timeKey } from './timeKey.js';

type Row = { id: number; created_at: number };

export interface CreateOptions<T> {
  id?: number;
  alongside?: (row: T) => Promise<unknown>;
  /** Collect the row's counts here instead of moving them now; the caller flushes the batch once. */
  counts?: KeptCounts;
  /**
   * What the new row sets in motion (outbox.ts): stored with it by the same PutItem, applied once it
   * and its counters are written, before create answers (or by the sweeper if this process dies first).
   */
  followUps?: FollowUp[];
}

/** The repository plus the few calls that need more than the generic contract. */
export interface DynamoRepository<T extends Row> extends Repository<T> {
  /**
   * `id` lets a caller allocate the id first (nextId) when it must claim a unique value for it
   * before the row exists; see docs/data-model.md "Unique values". `alongside`: work that needs the
   * row stored but not its kept counts (queue its delivery, write what follows from it), run
   * beside the counter writes instead of after them; create returns when both are done and throws
   * the first failure.
   */
  create(data: Omit<T, 'id' | 'created_at'> & Partial<Pick<T, 'created_at'>>, options?: CreateOptions<T>): Promise<T>;
  /**
   * `create` under an id the caller allocated before (its cause names it), once: a second call, after
   * a crash or a redelivery, finds the row written and answers it (`created: false`) unchanged.
   */
  createOnce(
    data: Omit<T, 'id' | 'created_at'> & Partial<Pick<T, 'created_at'>>,
    id: number,
    options?: Omit<CreateOptions<T>, 'id'>,
  ): Promise<{ row: T; created: boolean }>;
  /**
   * Many new rows in few calls: one id block, then BatchWriteItem in chunks of 25. BatchWrite
   * takes no condition, which is safe only because the ids are fresh from the counter.
   */
  createMany(data: (Omit<T, 'id' | 'created_at'> & Partial<Pick<T, 'created_at'>>)[]): Promise<T[]>;
  /**
   * A new row under an id fresh from the counter, prepared but not written: putNewRows writes the
   * new rows of several types in one BatchWriteItem (which takes no condition, like createMany).
   */
  newRow(data: Omit<T, 'id' | 'created_at'> & Partial<Pick<T, 'created_at'>>, id: number): Promise<NewRow<T>>;
  /**
   * `update`'s write without moving its kept counts: it answers the new row, the item as it was, the
   * row's key, and the counter move to run (at once, or off the caller's path). `also` adds clauses to
   * the same UpdateItem: a transition's follow-ups (transition.ts) are recorded so, with the change or
   * not at all.
   */
  updateWith(
    id: number,
    patch: Partial<T>,
    options?: UpdateOptions,
    also?: (b: ExpressionBuilder) => ExpressionParts,
  ): Promise<WrittenUpdate<T>>;
  /** Like get, but with the def's hidden fields (e.g. the encrypted password the checker needs). */
  getWithHidden(id: number): Promise<T | undefined>;
  /** Like all, but with the def's hidden fields. */
  allWithHidden(options?: ListOptions): Promise<T[]>;
  /**
   * The repair path: rewrites any row whose index keys, shadows or expiry differ from the current
   * layout (an older DATA_DIR, a new slot), then sets every counter of the type to its recount.
   * Reads the whole table (Scan): run it from a job, not a request. Writes that land while it
   * runs may be missed by the recount; run it again or when writes are quiet. `counters` is the
   * number of counter items written.
   */
  repair(): Promise<{ rows: number; reindexed: number; counters: number }>;
  /**
   * The row (consistent read) with the causes its guarded counters have counted (`add(..., { once })`),
   * for a repair that sets those counters whole (`update(..., { causes })`).
   */
  getCounted(id: number): Promise<{ row: T; causes: string[] } | undefined>;
  /**
   * Drops a cause a guarded counter counted (`add(..., { once })`), once the caller has another mark
   * that it was counted: rows that count without end (an incident's failures) keep their set small.
   */
  forgetCause(id: number, cause: string): Promise<void>;
}

/** Clauses another lib/db module adds to a repository's UpdateItem. */
export interface ExpressionParts {
  sets: string[];
  adds: string[];
  removes: string[];
}

/** What a repository's updateWith wrote. */
export interface WrittenUpdate<T> {
  row: T;
  /** The item as it was before the write (ALL_OLD). */
  old: Item;
  key: { pk: string; sk: string };
  /** Moves the kept counts of the partitions the write moved the row between (none: resolves at once). */
  moveCounters(): Promise<void>;
}

const BATCH_GET_MAX = 100;
const BATCH_WRITE_MAX = 25;

/** A row prepared by a repository's newRow: the item to put and the partitions it counts in. */
export interface NewRow<T> {
  row: T;
  item: Item;
  partitions: string[];
}

/** Puts items in BatchWriteItem calls of 25, sending again what comes back unprocessed under load. */
async function batchPut(items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH_WRITE_MAX) {
    let requests: { PutRequest: { Item: Item } }[] | undefined = items
      .slice(i, i + BATCH_WRITE_MAX)
      .map((item) => ({ PutRequest: { Item: item } }));
    for (let attempt = 0; requests?.length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 1000)));
      const out = await dynamoClient().send(new BatchWriteCommand({ RequestItems: { [config.tableName]: requests } }));
      requests = out.UnprocessedItems?.[config.tableName] as typeof requests;
    }
  }
}

/**
 * Writes new rows of any types (each from its repository's newRow) in one BatchWriteItem, then
 * adds their counts to `counts` for the caller to flush once: a run's evidence is four rows in one
 * call, not four. Safe without a condition only because every id is fresh from its counter.
 */
export async function putNewRows(rows: NewRow<unknown>[], counts: KeptCounts): Promise<void> {
  await batchPut(rows.map((r) => r.item));
  for (const r of rows) counts.add(r.partitions);
}

export function createRepository<T extends Row>(def: EntityDef<T>): DynamoRepository<T> {
  const key = (id: number) => ({ pk: `${def.type}#${id}`, sk: 'item' });
  const hidden = new Set<string>(def.hidden ?? []);
  const searchable = new Set<string>(searchableFields(def));
  const slots = (def.keys ?? []).map((field, i) => ({ index: SLOT_INDEXES[i], field: field as string }));
  const slotOf = new Map(slots.map((s) => [s.field, s.index]));
  const typeSpread = spreadOf(def);
  const slotSpread = new Map(slots.map((s) => [s.field, spreadOf(def, s.field)]));
  /** Fields whose change moves a spread row to another physical partition (its bucket follows created_at). */
  const spreadFields = new Set(['created_at', ...slots.filter((s) => slotSpread.get(s.field)).map((s) => s.field)]);

  /** The partition key value a row has in one index: its base, or the base's bucket/shard when spread. */
  function partitionValue(row: Record<string, unknown>, field?: string): string | undefined {
    const spread = field === undefined ? typeSpread : slotSpread.get(field);
    let base: string = def.type;
    if (field !== undefined) {
      const v = slotValue(def, field, row[field]);
      if (v === undefined) return undefined;
      base = parentKey(def.type, field, v);
    }
    return spread ? physicalPartition(base, spread, row as { id: number; created_at: number }) : base;
  }
  const live = (item: Item | undefined) => (item && item.deleted === undefined ? item : undefined);

  /** What callers see: no storage attributes, and no hidden fields unless asked for. */
  function toRow(item: Item, withHidden = false): T {
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item)) {
      if (!isInternal(k) && (withHidden || !hidden.has(k))) row[k] = v;
    }
    return row as T;
  }

  function assertWritable(field: string): void {
    if (isInternal(field)) throw new Error(`${def.type}: ${field} is a storage attribute and cannot be written`);
  }

  /** `ttl`: seconds the row lives (ttlSecondsOf, read once per call), undefined when kept. */
  function toItem(row: Record<string, unknown>, ttl: number | undefined): Item {
    const id = row.id as number;
    const created = row.created_at as number;
    const tk = timeKey(created, id);
    const item: Item = { ...row, ...key(id), [INDEX_KEYS.byType.partitionKey]: partitionValue(row) };
    // Every index sort key is written even without a parent: harmless (the index is sparse on its
    // partition key) and it lets a later update that sets the parent skip a read.
    for (const i of Object.values(INDEX_KEYS)) item[i.sortKey] = tk;
    for (const p of slots) {
      const v = partitionValue(row, p.field);
      if (v !== undefined) item[INDEX_KEYS[p.index].partitionKey] = v;
    }
    for (const f of searchable) {
      if (typeof row[f] === 'string') item[LC_PREFIX + f] = (row[f] as string).toLowerCase();
    }
    if (ttl) item[TTL_ATTRIBUTE] = Math.floor(created / 1000) + ttl;
    return item;
  }

  /** Existence + not soft-deleted + the caller's expectations, as one condition. */
  function condition(b: ExpressionBuilder, options?: AddOptions): string {
    const parts = [`attribute_exists(${b.name('pk')})`, `attribute_not_exists(${b.name('deleted')})`];
    // A guarded counter: not counted for this cause yet. A repair: no cause counted since it read the row.
    if (options?.once !== undefined) parts.push(`NOT contains(${b.name(CAUSES)}, ${b.value(options.once)})`);
    if (options?.causes)
      parts.push(
        options.causes.seen
          ? `size(${b.name(CAUSES)}) = ${b.value(options.causes.seen)}`
          : `attribute_not_exists(${b.name(CAUSES)})`,
      );
    for (const [field, expected] of Object.entries(options?.expect ?? {})) {
      parts.push(
        expected === undefined
          ? `attribute_not_exists(${b.name(field)})`
          : `${b.name(field)} = ${b.value(expected as NativeAttributeValue)}`,
      );
    }
    return parts.join(' AND ');
  }

  const notFound = (id: number) => (cause: unknown) =>
    new ConditionFailedError(`${def.type} ${id} does not exist, is deleted, or changed meanwhile`, { cause });

  async function sendUpdate(
    id: number,
    b: ExpressionBuilder,
    expression: string,
    options?: AddOptions,
    returnValues: 'ALL_NEW' | 'ALL_OLD' = 'ALL_NEW',
  ): Promise<Item> {
    const out = await onConditionFailure(
      dynamoClient().send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: key(id),
          UpdateExpression: expression,
          ConditionExpression: condition(b, options),
          ReturnValues: returnValues,
          ...b.attributes(),
        }),
      ),
      notFound(id),
    );
    return out.Attributes as Item;
  }

  async function readAll(options: ListOptions | undefined, withHidden: boolean): Promise<T[]> {
    return (await readAllRows(def, options)).map((item) => toRow(item, withHidden));
  }

  async function getItem(id: number): Promise<Item | undefined> {
    // Consistent read: a service that just wrote must see its own write (GSIs cannot offer this).
    const out = await dynamoClient().send(
      new GetCommand({ TableName: config.tableName, Key: key(id), ConsistentRead: true }),
    );
    return live(out.Item);
  }

  /** A new row as stored: its id, and created_at (unless given) and updated_at both `now`. */
  function newRowOf(data: object, id: number, now: number): Record<string, unknown> {
    const created_at = (data as Partial<Row>).created_at ?? now;
    return { updated_at: created_at, ...data, id, created_at };
  }

  const api: DynamoRepository<T> = {
    def,

    async create(data, options) {
      for (const field of Object.keys(data)) assertWritable(field);
      const id = options?.id ?? (def.ids === 'blocks' ? await idFromBlock(def.type) : await nextId(def.type));
      const row = newRowOf(data, id, Date.now());
      const outbox = options?.followUps?.length ? followUpsOfNewRow(options.followUps) : undefined;
      const item = { ...toItem(row, await ttlSecondsOf(def)), ...outbox?.attributes };
      await onConditionFailure(
        dynamoClient().send(
          new PutCommand({ TableName: config.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
        ),
        (cause) => new ConditionFailedError(`${def.type} ${id} already exists`, { cause }),
      );
      const created = toRow(row);
      if (options?.counts) {
        options.counts.add(partitionsOf(item));
        await options.alongside?.(created);
        if (outbox) await applyRecorded(key(id), outbox.write, undefined);
        return created;
      }
      // Both run to the end before create answers: a failed `alongside` never leaves counters in flight.
      const [counted, beside] = await Promise.allSettled([
        moveCounters(partitionsOf(item)),
        options?.alongside?.(created),
      ]);
      for (const outcome of [counted, beside]) if (outcome.status === 'rejected') throw outcome.reason;
      if (outbox) await applyRecorded(key(id), outbox.write, undefined);
      return created;
    },

    async createOnce(data, id, options) {
      try {
        return { row: await api.create(data, { ...options, id }), created: true };
      } catch (error) {
        const found = error instanceof ConditionFailedError ? await api.get(id) : undefined;
        if (!found) throw error;
        return { row: found, created: false };
      }
    },

    async createMany(list) {
      for (const data of list) for (const field of Object.keys(data)) assertWritable(field);
      const ids = await nextIds(def.type, list.length);
      const now = Date.now();
      const rows = list.map((data, i) => newRowOf(data, ids[i], now));
      const ttl = await ttlSecondsOf(def);
      const items = rows.map((row) => toItem(row, ttl));
      await batchPut(items);
      // One ADD per partition for the whole batch, after every row is written.
      const deltas = new Map<string, number>();
      for (const item of items) for (const p of partitionsOf(item)) deltas.set(p, (deltas.get(p) ?? 0) + 1);
      await addToCounters(deltas);
      return rows.map((row) => toRow(row));
    },

    async newRow(data, id) {
      for (const field of Object.keys(data)) assertWritable(field);
      const row = newRowOf(data, id, Date.now());
      const item = toItem(row, await ttlSecondsOf(def));
      return { row: toRow(row), item, partitions: partitionsOf(item) };
    },

    async get(id) {
      const item = await getItem(id);
      return item && toRow(item);
    },

    async getWithHidden(id) {
      const item = await getItem(id);
      return item && toRow(item, true);
    },

    async getMany(ids, options) {
      const keep = options?.includeDeleted ? (item: Item | undefined) => item : live;
      const unique = [...new Set(ids)];
      const found = new Map<number, T>();
      for (let i = 0; i < unique.length; i += BATCH_GET_MAX) {
        let keys: Record<string, NativeAttributeValue>[] | undefined = unique.slice(i, i + BATCH_GET_MAX).map(key);
        // BatchGet may return part of the keys as unprocessed under load; ask again until none remain.
        for (let attempt = 0; keys?.length; attempt++) {
          if (attempt) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 1000)));
          const out: BatchGetCommandOutput = await dynamoClient().send(
            new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: keys, ConsistentRead: true } } }),
          );
          for (const item of out.Responses?.[config.tableName] ?? []) {
            if (keep(item)) found.set(item.id as number, toRow(item));
          }
          keys = out.UnprocessedKeys?.[config.tableName]?.Keys;
        }
      }
      return unique.flatMap((id) => found.get(id) ?? []);
    },

    async update(id, patch, options) {
      const written = await api.updateWith(id, patch, options);
      await written.moveCounters();
      return written.row;
    },

    async updateWith(id, patch, options, also) {
      const b = new ExpressionBuilder();
      const sets: string[] = [];
      const removes: string[] = [];
      // What the write does, so the new item (and the partitions it moved to) is known without a read.
      const changes = new Map<string, unknown>();
      const set = (attr: string, v: unknown) => {
        sets.push(`${b.name(attr)} = ${b.value(v as NativeAttributeValue)}`);
        changes.set(attr, v);
      };
      const remove = (attr: string) => {
        removes.push(b.name(attr));
        changes.set(attr, undefined);
      };
      // A spread row's partitions depend on created_at and its other slot values: read it first
      // (rare: log rows do not change their process, flag or time) to place it in its new ones.
      const moves = typeSpread || slotSpread.size ? Object.keys(patch).some((f) => spreadFields.has(f)) : false;
      const basis = (moves ? options?.basis : undefined) as Record<string, unknown> | undefined;
      const current = moves && !basis ? await getItem(id) : undefined;
      if (moves && !basis && !current) throw notFound(id)(undefined);
      const merged = basis
        ? { ...basis, ...patch, id }
        : current
          ? { ...toRow(current, true), ...patch, id }
          : undefined;
      // Placed by the caller's basis: the write holds only while what placed it is unchanged.
      const guard = basis
        ? {
            ...options,
            expect: {
              ...Object.fromEntries([...spreadFields].filter((f) => !(f in patch)).map((f) => [f, basis[f]])),
              ...options?.expect,
            },
          }
        : options;
      for (const [field, value] of Object.entries(patch)) {
        if (field === 'id') continue; // the id is the key; never rewritten
        assertWritable(field);
        if (value === undefined) remove(field);
        else set(field, value);
        // Keep shadows and index keys in step with the field they derive from.
        if (searchable.has(field)) {
          if (typeof value === 'string') set(LC_PREFIX + field, value.toLowerCase());
          else remove(LC_PREFIX + field);
        }
        const index = slotOf.get(field);
        if (index && !merged) {
          const pk = INDEX_KEYS[index].partitionKey;
          const v = slotValue(def, field, value);
          if (v === undefined) remove(pk);
          else set(pk, parentKey(def.type, field, v));
        }
      }
      if (merged) {
        // Every index key from the row as it will be (bucket from its created_at, shard from its id).
        const pkOf = (value: string | undefined, attr: string) =>
          value === undefined ? remove(attr) : set(attr, value);
        pkOf(partitionValue(merged), INDEX_KEYS.byType.partitionKey);
        for (const p of slots) pkOf(partitionValue(merged, p.field), INDEX_KEYS[p.index].partitionKey);
      }
      if (typeof patch.created_at === 'number') {
        const tk = timeKey(patch.created_at, id);
        for (const i of Object.values(INDEX_KEYS)) set(i.sortKey, tk);
        const ttl = await ttlSecondsOf(def);
        if (ttl) set(TTL_ATTRIBUTE, Math.floor(patch.created_at / 1000) + ttl);
      }
      if (!('updated_at' in patch)) set('updated_at', Date.now());
      const adds: string[] = [];
      // What rides on this very write (a transition's follow-ups, transition.ts): written with the change, or not at all.
      const alsoWritten = also?.(b);
      if (alsoWritten) {
        sets.push(...alsoWritten.sets);
        adds.push(...alsoWritten.adds);
        removes.push(...alsoWritten.removes);
      }
      if (options?.causes?.add.length) adds.push(`${b.name(CAUSES)} ${b.value(new Set(options.causes.add))}`);
      const expression = [
        sets.length ? `SET ${sets.join(', ')}` : '',
        removes.length ? `REMOVE ${removes.join(', ')}` : '',
        adds.length ? `ADD ${adds.join(', ')}` : '',
      ].join(' ');
      const old = await sendUpdate(id, b, expression, guard, 'ALL_OLD');
      const next: Item = { ...old };
      for (const [attr, v] of changes) {
        if (v === undefined) delete next[attr];
        else next[attr] = v as NativeAttributeValue;
      }
      const before = partitionsOf(old);
      const after = partitionsOf(next);
      const moved = before.join() !== after.join();
      return {
        row: toRow(next),
        old,
        key: key(id),
        moveCounters: () => (moved ? moveBetween(before, after) : Promise.resolve()),
      };
    },

    async add(id, deltas, options) {
      const b = new ExpressionBuilder();
      const adds = Object.entries(deltas).map(([field, delta]) => {
        assertWritable(field);
        // A key field moves its row between slot partitions: that takes update(), which moves counters.
        if (slotOf.has(field)) throw new Error(`${def.type}: ${field} is a key field; set it with update()`);
        return `${b.name(field)} ${b.value(delta as number)}`;
      });
      if (options?.once !== undefined) adds.push(`${b.name(CAUSES)} ${b.value(new Set([options.once]))}`);
      const expression =
        `SET ${b.name('updated_at')} = ${b.value(Date.now())}` + (adds.length ? ` ADD ${adds.join(', ')}` : '');
      try {
        return toRow(await sendUpdate(id, b, expression, options));
      } catch (error) {
        if (options?.once === undefined || !(error instanceof ConditionFailedError)) throw error;
        // Counted already (a follow-up applied again): the row as it is. Missing or deleted: the error.
        const item = await getItem(id);
        if (!item) throw error;
        return toRow(item);
      }
    },

    async forgetCause(id, cause) {
      const b = new ExpressionBuilder();
      await sendUpdate(id, b, `DELETE ${b.name(CAUSES)} ${b.value(new Set([cause]))}`);
    },

    async getCounted(id) {
      const item = await getItem(id);
      if (!item) return undefined;
      const causes = item[CAUSES] as Set<string> | undefined;
      return { row: toRow(item), causes: causes ? [...causes] : [] };
    },

    async softDelete(id) {
      // Dropping the index partition keys takes the row out of every list, so lists neither
      // read nor count it (sparse indexes), and no list filter is needed for deleted rows.
      const b = new ExpressionBuilder();
      const indexKeys = Object.values(INDEX_KEYS).map((i) => b.name(i.partitionKey));
      const expression =
        `SET ${b.name('deleted')} = ${b.value(1)}, ${b.name('updated_at')} = ${b.value(Date.now())}` +
        ` REMOVE ${indexKeys.join(', ')}`;
      // The condition (live row) makes only the writer that deleted it move the counters.
      const old = await sendUpdate(id, b, expression, undefined, 'ALL_OLD');
      await moveCounters(partitionsOf(old), -1);
    },

    async restore(id) {
      const out = await dynamoClient().send(
        new GetCommand({ TableName: config.tableName, Key: key(id), ConsistentRead: true }),
      );
      if (!out.Item || out.Item.deleted === undefined) throw notFound(id)(undefined);
      const { deleted: _, ...stored } = out.Item;
      // Rebuilt from the row's fields, so its index keys, shadows and expiry are the current layout's;
      // its pending follow-ups and counted causes stay as they are.
      const item = { ...outboxAttributes(stored), ...toItem(toRow(stored, true), await ttlSecondsOf(def)) };
      await onConditionFailure(
        dynamoClient().send(
          new PutCommand({
            TableName: config.tableName,
            Item: { ...item, updated_at: Date.now() },
            ConditionExpression: '#d = :one',
            ExpressionAttributeNames: { '#d': 'deleted' },
            ExpressionAttributeValues: { ':one': 1 },
          }),
        ),
        notFound(id),
      );
      await moveCounters(partitionsOf(item));
    },

    async remove(id) {
      const out = await dynamoClient().send(
        new DeleteCommand({ TableName: config.tableName, Key: key(id), ReturnValues: 'ALL_OLD' }),
      );
      await moveCounters(partitionsOf(out.Attributes), -1);
    },

    async list(query: ListQuery, options?: ListOptions): Promise<ListOutcome<T>> {
      const out = await runListQuery(def, query, options);
      return { ...out, result: out.result.map((item) => toRow(item)) };
    },

    async repair() {
      const rowPrefix = `${def.type}#`;
      const counterPrefix = `${COUNT_PREFIX}${def.type}`;
      // A grouped type's counts are in its group's items too (partitions.ts listTotalKey).
      const groupPrefix = def.counterGroup ? `${COUNT_PREFIX}@${def.counterGroup}` : counterPrefix;
      /** This type's attributes of a counter item (a group's item holds other types' too). */
      const ownAttrs = (item: Record<string, NativeAttributeValue>) =>
        Object.keys(item).filter((a) => a === def.type || a.startsWith(`${def.type}:`));
      const counts = new Map<string, number>();
      /** The type's counter items as they are: `${pk}\0${sk}` -> item. */
      const existing = new Map<string, Record<string, NativeAttributeValue>>();
      let rows = 0;
      let reindexed = 0;
      let start: Record<string, NativeAttributeValue> | undefined;
      // The retention in force: repair moves older rows' expiry to it too.
      const ttl = await ttlSecondsOf(def);
      do {
        const out = await dynamoClient().send(
          new ScanCommand({
            TableName: config.tableName,
            FilterExpression:
              '(begins_with(pk, :row) AND sk = :item) OR begins_with(pk, :count) OR begins_with(pk, :group)',
            ExpressionAttributeValues: {
              ':row': rowPrefix,
              ':item': 'item',
              ':count': counterPrefix,
              ':group': groupPrefix,
            },
            ExclusiveStartKey: start,
          }),
        );
        for (const item of out.Items ?? []) {
          if (item.sk !== 'item') {
            if (countsOfCounter(item).some(([p]) => typeOfPartition(p) === def.type))
              existing.set(counterItemId({ pk: item.pk as string, sk: item.sk as string }), item);
            continue;
          }
          if (item.deleted !== undefined) continue;
          rows++;
          // Pending follow-ups and counted causes are not layout: carried over as they are, never a drift.
          const carried = outboxAttributes(item);
          const rebuilt = { ...carried, ...toItem(toRow(item, true), ttl) };
          const drifted = Object.keys({ ...item, ...rebuilt }).some(
            (k) => isInternal(k) && !(k in carried) && k !== 'pk' && k !== 'sk' && item[k] !== rebuilt[k],
          );
          if (drifted) {
            reindexed++;
            await onConditionFailure(
              dynamoClient().send(
                new PutCommand({
                  TableName: config.tableName,
                  Item: rebuilt,
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted)',
                }),
              ),
              notFound(item.id as number),
            ).catch((error) => {
              if (!(error instanceof ConditionFailedError)) throw error;
            });
          }
          for (const p of partitionsOf(rebuilt)) counts.set(p, (counts.get(p) ?? 0) + 1);
        }
        start = out.LastEvaluatedKey;
      } while (start);
      // The counter items the recount calls for, whole: a Put replaces every count in the item.
      const wanted = new Map<string, Record<string, NativeAttributeValue>>(
        [...byCounterItem(counts)].map(([id, { pk, sk, counts: n }]) => [id, { pk, sk, ...Object.fromEntries(n) }]),
      );
      const gone: Record<string, NativeAttributeValue>[] = [];
      for (const [key, item] of existing) {
        if (wanted.has(key)) continue;
        // A partition that emptied keeps a zero when it is unspread and its counter is still this
        // item (a list reads it by its key). An emptied bucket's item, an older layout's item and
        // the whole-type counter of a now-spread base are deleted: lists read every bucket item of
        // a type, so those must not pile up. (A group's item only loses this type's attributes.)
        const zeroed = countsOfCounter(item).filter(([p]) => {
          const { base, bucket, shard } = parsePartition(p);
          const here = listTotalKey(p);
          return (
            bucket === undefined &&
            shard === undefined &&
            spreadOf(def, splitBase(base).field) === undefined &&
            here.pk === item.pk &&
            here.sk === item.sk
          );
        });
        if (zeroed.length && !isGroupCounter(item.pk as string))
          wanted.set(key, {
            pk: item.pk,
            sk: item.sk,
            ...Object.fromEntries(zeroed.map(([p]) => [listTotalKey(p).attr, 0])),
          });
        else gone.push(item);
      }
      /** A group's item is shared: only this type's attributes are set or removed. */
      const setOwn = async (
        item: Record<string, NativeAttributeValue>,
        before?: Record<string, NativeAttributeValue>,
      ) => {
        const b = new ExpressionBuilder();
        const set = ownAttrs(item).map((a) => `${b.name(a)} = ${b.value(item[a])}`);
        const remove = (before ? ownAttrs(before) : []).filter((a) => !(a in item)).map((a) => b.name(a));
        if (!set.length && !remove.length) return;
        await dynamoClient().send(
          new UpdateCommand({
            TableName: config.tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: [
              set.length ? `SET ${set.join(', ')}` : '',
              remove.length ? `REMOVE ${remove.join(', ')}` : '',
            ]
              .filter(Boolean)
              .join(' '),
            ...b.attributes(),
          }),
        );
      };
      const writes: (() => Promise<unknown>)[] = [
        ...[...wanted].map(([key, item]) =>
          isGroupCounter(item.pk as string)
            ? () => setOwn(item, existing.get(key))
            : () => dynamoClient().send(new PutCommand({ TableName: config.tableName, Item: item })),
        ),
        ...gone.map((item) =>
          isGroupCounter(item.pk as string)
            ? () => setOwn({ pk: item.pk, sk: item.sk }, item)
            : () =>
                dynamoClient().send(
                  new DeleteCommand({ TableName: config.tableName, Key: { pk: item.pk, sk: item.sk } }),
                ),
        ),
      ];
      await mapLimit(writes, 16, (write) => write());
      return { rows, reindexed, counters: wanted.size };
    },

    all: (options) => readAll(options, false),
    allWithHidden: (options) => readAll(options, true),
  };
  return api;
}
