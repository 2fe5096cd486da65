// Small records of one kind, each found by its id, outside every index: state a feature keeps
// beside its rows (a poll's lease and outcome, a webhook's delivery health, a day's rollup).
// They never appear in a list, so a write costs the item's own size and nothing in the indexes,
// and a feature names a record by kind and id while the keys are built here (entity.ts header:
// the one table's layout).
//
//   one per id     pk = `${kind}#${id}`            sk = options.sk ?? 'record'
//   singleton      pk = kind                       sk = options.sk ?? 'record'      (id '')
//   grouped        pk = `${kind}#g${group(id)}`    sk = String(id)
//   compound       pk = `${kind}#${part}`          sk = rest                        (id `${part}/${rest}`)
//
// Grouped records share a few partitions, so every record of the kind is read with one Query per
// group (the size of the records, not a read per record), yet no partition takes all the writes.
// Compound ids name their partition (a day's rollups of every account), read with allIn(part).

import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { held, onConditionFailure } from './conditionFailure.js';
import { ConditionFailedError } from './entity.js';
import { conditionExpression, ExpressionBuilder, type RecordCondition, when } from './expr.js';
import { TTL_ATTRIBUTE } from './tableSchema.js';

export type RecordId = string | number;
type Attrs = Record<string, NativeAttributeValue>;

export interface RecordLayout {
  /** The sort key of a record per id (kept for records written before this module: 'state', 'slot'). */
  sk?: string;
  /** Records spread over this many partitions by id (numeric ids), each read with one Query. */
  groups?: number;
  /** Ids are `${partition}/${sort}`: records of one partition are read together (allIn). */
  compound?: boolean;
  /** Seconds a record lives after its last write that sets it (`expires_at`); the cloud's TTL drops it. */
  ttlSeconds?: number;
}

/**
 * One write's change of a record's attributes: SET, ADD (numbers, or members into a number or string set),
 * DELETE from a set, REMOVE; `setIfAbsent` SETs only attributes the record lacks.
 */
export interface RecordChange {
  set?: Attrs;
  setIfAbsent?: Attrs;
  add?: Record<string, number>;
  addToSet?: Record<string, number[] | string[]>;
  deleteFromSet?: Record<string, number[] | string[]>;
  remove?: string[];
}

/** Which attributes a record's key takes up (never returned as data). */
const KEY_ATTRS = new Set(['pk', 'sk', TTL_ATTRIBUTE]);

/**
 * A read item as the feature's data: its key attributes removed and its number sets as arrays, in
 * place (the item is the SDK's fresh copy, which nothing else holds). Not copied: a record of ~50
 * attributes (a day's figures) copied name by name cost more than reading it (the dashboard's 400).
 */
export function recordData<T>(item: Attrs | undefined): T | undefined {
  if (!item) return undefined;
  for (const k of KEY_ATTRS) if (k in item) delete item[k];
  for (const k in item) {
    const v = item[k];
    if (v instanceof Set) item[k] = [...v];
  }
  return item as T;
}

/** Builds `SET … ADD … DELETE … REMOVE …` for a change (empty string when there is none). */
export function changeExpression(b: ExpressionBuilder, change: RecordChange): string {
  const sets = Object.entries(change.set ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${b.name(k)} = ${b.value(v)}`);
  for (const [k, v] of Object.entries(change.setIfAbsent ?? {}))
    sets.push(`${b.name(k)} = if_not_exists(${b.name(k)}, ${b.value(v)})`);
  const adds = Object.entries(change.add ?? {})
    .filter(([, v]) => v !== 0)
    .map(([k, v]) => `${b.name(k)} ${b.value(v)}`);
  for (const [k, v] of Object.entries(change.addToSet ?? {}))
    if (v.length) adds.push(`${b.name(k)} ${b.value(new Set<number | string>(v))}`);
  const deletes = Object.entries(change.deleteFromSet ?? {})
    .filter(([, v]) => v.length)
    .map(([k, v]) => `${b.name(k)} ${b.value(new Set<number | string>(v))}`);
  const removes = [
    ...(change.remove ?? []),
    ...Object.entries(change.set ?? {})
      .filter(([, v]) => v === undefined)
      .map(([k]) => k),
  ].map((k) => b.name(k));
  return [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    deletes.length ? `DELETE ${deletes.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export interface KeyedRecords<T extends object> {
  readonly kind: string;
  /** Eventually consistent unless asked (0.5 RCU per 4 KB; consistent 1). */
  get(id: RecordId, options?: { consistent?: boolean }): Promise<T | undefined>;
  /** `get` (eventually consistent) with the read units it consumed, for an answer that reports them. */
  getMeasured(id: RecordId): Promise<{ record: T | undefined; rcu: number }>;
  /** The records found among `ids` (BatchGet; missing ones are left out). */
  getMany(ids: RecordId[], options?: { consistent?: boolean }): Promise<Map<string, T>>;
  /** Every record of a grouped kind: one Query per group. `rcu`: what the reads consumed. */
  all(): Promise<{ records: Map<string, T>; rcu: number }>;
  /**
   * Every record of one partition of a compound kind, by the rest of its id; with `attributes`, only
   * those of each record (read units are the same: they count whole items; the answer is smaller).
   */
  allIn(partition: string, attributes?: readonly string[]): Promise<{ records: Map<string, T>; rcu: number }>;
  /** Writes the whole record; false when `ifAbsent` finds one or `when` does not hold. */
  put(id: RecordId, data: T, options?: { ifAbsent?: boolean; when?: RecordCondition }): Promise<boolean>;
  /**
   * Changes attributes in one write, creating the record when absent. With `when`, only if it holds:
   * otherwise ConditionFailedError (`held`/`ifHeld` in conditionFailure.ts turn that into an answer).
   */
  update(
    id: RecordId,
    change: RecordChange,
    options?: { returnNew?: boolean; when?: RecordCondition },
  ): Promise<T | undefined>;
  /** Deletes the record (`returnOld`: and answers what it was); a `when` that does not hold: ConditionFailedError. */
  remove(id: RecordId, options?: { returnOld?: boolean; when?: RecordCondition }): Promise<T | undefined>;
  /** The key of a record, for lib/db modules that build their own commands on it (lease.ts). */
  keyOf(id: RecordId): { pk: string; sk: string };
}

const BATCH_GET_MAX = 100;

export function keyedRecords<T extends object>(kind: string, layout: RecordLayout = {}): KeyedRecords<T> {
  const groups = layout.groups ?? 0;
  const keyOf = (id: RecordId) => {
    if (groups > 0) return { pk: `${kind}#g${Math.abs(Number(id)) % groups}`, sk: String(id) };
    if (layout.compound) {
      const [part, ...rest] = String(id).split('/');
      return { pk: `${kind}#${part}`, sk: rest.join('/') };
    }
    return { pk: id === '' ? kind : `${kind}#${id}`, sk: layout.sk ?? 'record' };
  };
  const idOf = (item: Attrs): string =>
    groups > 0
      ? String(item.sk)
      : layout.compound
        ? `${String(item.pk).slice(kind.length + 1)}/${item.sk}`
        : String(item.pk).slice(kind.length + 1);
  /** Every record under one partition key, by its sort key. */
  async function queryPartition(pk: string, records: Map<string, T>, attributes?: readonly string[]): Promise<number> {
    let rcu = 0;
    let start: Attrs | undefined;
    const projection = attributes?.length
      ? {
          ProjectionExpression: ['sk', ...attributes].map((_, i) => `#p${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(['sk', ...attributes].map((a, i) => [`#p${i}`, a])),
        }
      : {};
    do {
      const out = await dynamoClient().send(
        new QueryCommand({
          TableName: config.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ReturnConsumedCapacity: 'TOTAL',
          ExclusiveStartKey: start,
          ...projection,
        }),
      );
      rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
      for (const item of out.Items ?? []) records.set(String(item.sk), recordData<T>(item) as T);
      start = out.LastEvaluatedKey;
    } while (start);
    return rcu;
  }
  /** A conditional write's refusal as our error, naming the record (features never see the vendor's). */
  const failsAs = <R>(id: RecordId, write: Promise<R>) =>
    onConditionFailure(
      write,
      (cause) => new ConditionFailedError(`${kind} ${String(id)}: the record is not as the write expects`, { cause }),
    );
  const expiry = () => (layout.ttlSeconds ? Math.floor(Date.now() / 1000) + layout.ttlSeconds : undefined);

  return {
    kind,
    keyOf,
    async get(id, options) {
      const out = await dynamoClient().send(
        new GetCommand({ TableName: config.tableName, Key: keyOf(id), ConsistentRead: options?.consistent }),
      );
      return recordData<T>(out.Item);
    },
    async getMeasured(id) {
      const out = await dynamoClient().send(
        new GetCommand({ TableName: config.tableName, Key: keyOf(id), ReturnConsumedCapacity: 'TOTAL' }),
      );
      return { record: recordData<T>(out.Item), rcu: out.ConsumedCapacity?.CapacityUnits ?? 0 };
    },
    async getMany(ids, options) {
      const found = new Map<string, T>();
      const unique = [...new Set(ids.map(String))];
      for (let i = 0; i < unique.length; i += BATCH_GET_MAX) {
        let keys: Attrs[] | undefined = unique.slice(i, i + BATCH_GET_MAX).map(keyOf);
        for (let attempt = 0; keys?.length; attempt++) {
          if (attempt) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 1000)));
          const out: BatchGetCommandOutput = await dynamoClient().send(
            new BatchGetCommand({
              RequestItems: { [config.tableName]: { Keys: keys, ConsistentRead: options?.consistent } },
            }),
          );
          for (const item of out.Responses?.[config.tableName] ?? []) found.set(idOf(item), recordData<T>(item) as T);
          keys = out.UnprocessedKeys?.[config.tableName]?.Keys;
        }
      }
      return found;
    },
    async all() {
      if (groups <= 0) throw new Error(`${kind}: all() reads grouped records only`);
      const records = new Map<string, T>();
      const units = await Promise.all(
        Array.from({ length: groups }, (_, g) => queryPartition(`${kind}#g${g}`, records)),
      );
      return { records, rcu: units.reduce((a, b) => a + b, 0) };
    },
    async allIn(partition, attributes) {
      if (!layout.compound) throw new Error(`${kind}: allIn() reads compound records only`);
      const records = new Map<string, T>();
      const rcu = await queryPartition(`${kind}#${partition}`, records, attributes);
      return { records, rcu };
    },
    async put(id, data, options) {
      const ttl = expiry();
      const b = new ExpressionBuilder();
      const condition = options?.when ?? (options?.ifAbsent ? when.missing() : undefined);
      const write = dynamoClient().send(
        new PutCommand({
          TableName: config.tableName,
          Item: { ...data, ...keyOf(id), ...(ttl ? { [TTL_ATTRIBUTE]: ttl } : {}) },
          ...(condition ? { ConditionExpression: conditionExpression(b, condition), ...b.attributes() } : {}),
        }),
      );
      return held(write);
    },
    async update(id, change, options) {
      const b = new ExpressionBuilder();
      const ttl = expiry();
      const expression = changeExpression(
        b,
        ttl ? { ...change, set: { ...change.set, [TTL_ATTRIBUTE]: ttl } } : change,
      );
      const condition = options?.when ? conditionExpression(b, options.when) : undefined;
      const out = await failsAs(
        id,
        dynamoClient().send(
          new UpdateCommand({
            TableName: config.tableName,
            Key: keyOf(id),
            UpdateExpression: expression,
            ConditionExpression: condition,
            ReturnValues: options?.returnNew ? 'ALL_NEW' : 'NONE',
            ...b.attributes(),
          }),
        ),
      );
      return recordData<T>(out.Attributes);
    },
    async remove(id, options) {
      const b = new ExpressionBuilder();
      const condition = options?.when ? conditionExpression(b, options.when) : undefined;
      const out = await failsAs(
        id,
        dynamoClient().send(
          new DeleteCommand({
            TableName: config.tableName,
            Key: keyOf(id),
            ConditionExpression: condition,
            ReturnValues: options?.returnOld ? 'ALL_OLD' : 'NONE',
            ...b.attributes(),
          }),
        ),
      );
      return recordData<T>(out.Attributes);
    },
  };
}
