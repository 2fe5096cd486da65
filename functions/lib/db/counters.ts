// Row counts kept per index partition, so total_count of an unfiltered list, of a list scoped to a
// foreign id and of an equality on an enum/boolean slot is one GetItem, whatever the table's size.
//
// A counter per index partition (partition = the index partition key value: the type, or
// `${type}:${field}=${value}`): an item of its own for an unspread partition (pk `count#${partition}`,
// sk 'count', attribute `n`), and for a spread type one item per bucket (and shard) holding every
// base's count of that bucket as an attribute (partitions.ts, listTotalKey). The writes that put a row
// into or take it out of index partitions move the counters of exactly those partitions with `ADD`,
// one call per counter item (create, createMany, softDelete, restore, an update that moves a slot,
// remove, expiry through the stream handler or the local sweeper). Without transactions a crash
// between the row write and its ADDs leaves a counter off: `repo.repair()` recomputes them from the rows.

import { GetCommand, type NativeAttributeValue, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { mapLimit } from '../mapLimit.js';
import { COUNT_PREFIX, listTotalKey, type Partitioning, spreadCounterKey } from './partitions.js';
import { TABLE_INDEXES } from './tableSchema.js';

export { COUNT_PREFIX, listTotalKey };

/** Every index partition a stored item sits in (none for a soft-deleted row: its index keys are gone). */
export function partitionsOf(item: Record<string, NativeAttributeValue> | undefined): string[] {
  if (!item || item.deleted !== undefined) return [];
  return TABLE_INDEXES.flatMap((i) =>
    typeof item[i.partitionKey] === 'string' ? [item[i.partitionKey] as string] : [],
  );
}

/** Adds `delta` rows to each partition's counter; the same partition may appear more than once. */
export function moveCounters(partitions: Iterable<string>, delta = 1): Promise<void> {
  const deltas = new Map<string, number>();
  for (const p of partitions) deltas.set(p, (deltas.get(p) ?? 0) + delta);
  return addToCounters(deltas);
}

/**
 * Counts collected over several writes and moved at the end with one ADD per counter item: a
 * bank poll's statements, balance stats and notifications share their day and account counters,
 * so a poll moves each once however many rows it wrote (repository `create({ counts })`).
 */
export class CounterBatch {
  private deltas = new Map<string, number>();

  add(partitions: Iterable<string>, delta = 1): void {
    for (const p of partitions) this.deltas.set(p, (this.deltas.get(p) ?? 0) + delta);
  }

  get size(): number {
    return this.deltas.size;
  }

  /** Moves what was collected (one ADD per counter item) and starts empty again. */
  async flush(): Promise<void> {
    const deltas = this.deltas;
    this.deltas = new Map();
    await addToCounters(deltas);
  }
}

/** Moves counters from the partitions an item was in to the ones it is in now (an update of a slot field). */
export function moveBetween(before: string[], after: string[]): Promise<void> {
  const deltas = new Map<string, number>();
  for (const p of before) deltas.set(p, (deltas.get(p) ?? 0) - 1);
  for (const p of after) deltas.set(p, (deltas.get(p) ?? 0) + 1);
  return addToCounters(deltas);
}

/** Where a counter item is found among others: its key as one string. */
export const counterItemId = (key: { pk: string; sk: string }): string => `${key.pk}\0${key.sk}`;

/**
 * Per-partition numbers grouped by the counter item that keeps them (listTotalKey): item id ->
 * its key and attribute -> number, summed when two partitions name the same attribute.
 */
export function byCounterItem(
  entries: Iterable<[partition: string, n: number]>,
): Map<string, { pk: string; sk: string; counts: Map<string, number> }> {
  const items = new Map<string, { pk: string; sk: string; counts: Map<string, number> }>();
  for (const [partition, n] of entries) {
    const { pk, sk, attr } = listTotalKey(partition);
    const id = counterItemId({ pk, sk });
    const item = items.get(id) ?? { pk, sk, counts: new Map<string, number>() };
    item.counts.set(attr, (item.counts.get(attr) ?? 0) + n);
    items.set(id, item);
  }
  return items;
}

/** Counter writes in flight at once: a batch of rows may touch hundreds of partitions. */
const COUNTER_WRITES_IN_FLIGHT = 16;

/**
 * One atomic ADD per counter item whose counts change: a row's spread partitions share their
 * bucket's item, so they move in one call (`ADD #a0 :d0, #a1 :d1, ...`).
 */
export async function addToCounters(deltas: Map<string, number>): Promise<void> {
  const items = byCounterItem([...deltas].filter(([, d]) => d !== 0));
  await mapLimit([...items.values()], COUNTER_WRITES_IN_FLIGHT, async ({ pk, sk, counts }) => {
    const moves = [...counts].filter(([, d]) => d !== 0);
    if (!moves.length) return;
    await dynamoClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk, sk },
        UpdateExpression: `ADD ${moves.map((_, i) => `#a${i} :d${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(moves.map(([attr], i) => [`#a${i}`, attr])),
        ExpressionAttributeValues: Object.fromEntries(moves.map(([, d], i) => [`:d${i}`, d])),
      }),
    );
  });
}

/** The kept count of one partition (eventually consistent, 0.5 RCU). */
export async function readCounter(partition: string): Promise<{ count: number; rcu: number }> {
  const { pk, sk, attr } = listTotalKey(partition);
  const out = await dynamoClient().send(
    new GetCommand({ TableName: config.tableName, Key: { pk, sk }, ReturnConsumedCapacity: 'TOTAL' }),
  );
  return { count: Math.max(0, Number(out.Item?.[attr] ?? 0)), rcu: out.ConsumedCapacity?.CapacityUnits ?? 0.5 };
}

/** Kept counts of every bucket of a spread base: bucket ('' when unbucketed) -> count per shard. */
export interface BucketCounts {
  buckets: Map<string, number[]>;
  total: number;
  rcu: number;
}

/**
 * One Query per shard over the type's counter items (pk `count#${type}[#s=k]`, one item per
 * bucket), taking the base's attribute of each: an item is ~40 bytes plus ~15 per base value with
 * rows in that bucket, so a year of day buckets of a type with a dozen slot values is ~8 RCU.
 * `low`/`high` bound the buckets.
 */
export async function readBucketCounters(
  base: string,
  spread: Required<Partitioning>,
  bounds: { low?: string; high?: string } = {},
): Promise<BucketCounts> {
  const buckets = new Map<string, number[]>();
  let total = 0;
  let rcu = 0;
  await Promise.all(
    Array.from({ length: spread.shards }, async (_, shard) => {
      const { pk, attr } = spreadCounterKey(base, undefined, spread.shards > 1 ? shard : undefined);
      const condition = ['pk = :pk'];
      const values: Record<string, NativeAttributeValue> = { ':pk': pk };
      if (spread.bucket && bounds.low) {
        condition.push(bounds.high ? 'sk BETWEEN :low AND :high' : 'sk >= :low');
        values[':low'] = bounds.low;
      } else if (spread.bucket && bounds.high) condition.push('sk <= :high');
      if (bounds.high && spread.bucket) values[':high'] = bounds.high;
      let start: Record<string, NativeAttributeValue> | undefined;
      do {
        const out = await dynamoClient().send(
          new QueryCommand({
            TableName: config.tableName,
            KeyConditionExpression: condition.join(' AND '),
            ExpressionAttributeValues: values,
            // Only the base's count travels; the read units are the whole items' all the same.
            ProjectionExpression: 'sk, #a',
            ExpressionAttributeNames: { '#a': attr },
            ReturnConsumedCapacity: 'TOTAL',
            ExclusiveStartKey: start,
          }),
        );
        rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
        for (const item of out.Items ?? []) {
          const sk = item.sk as string;
          // A bucketed base's old whole-partition counter (sk 'count', from before it was spread)
          // is not a bucket: the repair path zeroes it.
          if (spread.bucket ? sk === 'count' : sk !== 'count') continue;
          // A bucket with rows of the type but none of this base.
          if (item[attr] === undefined) continue;
          const bucket = spread.bucket ? sk : '';
          const n = Math.max(0, Number(item[attr]));
          const shards = buckets.get(bucket) ?? new Array<number>(spread.shards).fill(0);
          shards[shard] = n;
          buckets.set(bucket, shards);
          total += n;
        }
        start = out.LastEvaluatedKey;
      } while (start);
    }),
  );
  return { buckets, total, rcu };
}
