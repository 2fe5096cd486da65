// Reading a spread base (partitions.ts) as if it were one partition: its buckets in key order,
// and within a bucket its shards merged by the index sort key (timeKey). A page reads the
// newest bucket(s) only: about page_size rows (+1 per shard), never the rows of older buckets it
// does not reach. Positions are per shard, so a page resumes exactly where the previous one ended.

import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import type { Partitioning } from './partitions.js';
import { physical } from './partitions.js';

type Item = Record<string, NativeAttributeValue>;

/** Where a spread read resumes: a bucket and, per shard, the key after the last row taken ('done': none left). */
export interface SpreadPosition {
  bucket: string;
  starts: (Item | null | 'done')[];
}

export interface SpreadRead {
  rows: Item[];
  rcu: number;
  scanned: number;
  /** Rows remain past what was read. */
  more: boolean;
  /** Where the next page starts (after the last row kept). */
  next?: SpreadPosition;
  /** Where the rows after the first `stop.mark` start, when that many were kept. */
  marked?: SpreadPosition;
}

const MAX_LIMIT = 2000;

interface Stream {
  partition: string;
  /** Where the next fetch starts (undefined: the bucket's beginning). */
  fetchFrom?: Item;
  /** Key after the last row taken from this shard, or where it started. */
  taken: Item | null | 'done';
  buffer: Item[];
  exhausted: boolean;
}

/**
 * Reads `buckets` (already in read order) of `base`, from `from`, until `stop.matches` rows are
 * kept or `stop.scanned` rows were read. `input` is the planned Query; `pkValue` the placeholder
 * of its partition value, replaced per physical partition. `stop.mark`: also say where the rows
 * after the first `mark` start (a page reached without a cursor keeps its own start).
 */
export async function readSpread(
  input: QueryCommandInput,
  pkValue: string,
  base: string,
  spread: Required<Partitioning>,
  buckets: string[],
  stop: { matches: number; scanned: number; mark?: number },
  keyAttrs: { partitionKey: string; sortKey: string },
  from?: SpreadPosition,
): Promise<SpreadRead> {
  const rows: Item[] = [];
  let rcu = 0;
  let scanned = 0;
  const forward = input.ScanIndexForward !== false;
  const filtered = Boolean(input.FilterExpression);
  const shards = spread.shards;
  const keyOf = (item: Item): Item => ({
    pk: item.pk,
    sk: item.sk,
    [keyAttrs.partitionKey]: item[keyAttrs.partitionKey],
    [keyAttrs.sortKey]: item[keyAttrs.sortKey],
  });
  // Resume at the cursor's bucket (or the first one after it in read order, if it emptied meanwhile).
  let at = 0;
  if (from) {
    at = buckets.findIndex((b) => (forward ? b >= from.bucket : b <= from.bucket));
    if (at < 0) at = buckets.length;
  }
  let last: SpreadPosition | undefined;
  let marked: SpreadPosition | undefined;
  let growth = 50;
  for (; at < buckets.length; at++) {
    const bucket = buckets[at];
    const resume = from && bucket === from.bucket ? from.starts : undefined;
    const streams: Stream[] = Array.from({ length: shards }, (_, s) => {
      const start = resume?.[s] ?? null;
      return {
        partition: physical(base, bucket || undefined, shards > 1 ? s : undefined),
        fetchFrom: start && start !== 'done' ? start : undefined,
        taken: start,
        buffer: [],
        exhausted: start === 'done',
      };
    });
    for (;;) {
      const need = stop.matches - rows.length;
      const empty = streams.filter((s) => !s.buffer.length && !s.exhausted);
      if (empty.length && need > 0 && scanned < stop.scanned) {
        // The budget left is shared exactly among the shards that need rows, so `searched` is the budget.
        const left = stop.scanned - scanned;
        const share = (i: number) =>
          Number.isFinite(left) ? Math.floor(left / empty.length) + (i < left % empty.length ? 1 : 0) : MAX_LIMIT;
        const wanted = shards === 1 ? need : Math.ceil(need / shards) + 1;
        const limitOf = (i: number) => Math.min(filtered ? growth : wanted, share(i), MAX_LIMIT);
        growth = Math.min(growth * 4, MAX_LIMIT);
        await Promise.all(
          empty.map(async (s, i) => {
            const limit = limitOf(i);
            if (limit < 1) return;
            const out = await dynamoClient().send(
              new QueryCommand({
                ...input,
                ExpressionAttributeValues: { ...input.ExpressionAttributeValues, [pkValue]: s.partition },
                ExclusiveStartKey: s.fetchFrom,
                Limit: limit,
              }),
            );
            rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
            scanned += out.ScannedCount ?? 0;
            s.buffer.push(...(out.Items ?? []));
            s.fetchFrom = out.LastEvaluatedKey;
            s.exhausted = !out.LastEvaluatedKey;
          }),
        );
        continue;
      }
      // Take rows in key order while every live shard has a candidate (or the budget is spent).
      const spent = scanned >= stop.scanned;
      let took = false;
      while (rows.length < stop.matches) {
        if (!spent && streams.some((s) => !s.buffer.length && !s.exhausted)) break;
        let best: Stream | undefined;
        for (const s of streams) {
          if (!s.buffer.length) continue;
          const sk = s.buffer[0][keyAttrs.sortKey] as string;
          const bestSk = best?.buffer[0][keyAttrs.sortKey] as string | undefined;
          if (bestSk === undefined || (forward ? sk < bestSk : sk > bestSk)) best = s;
        }
        if (!best) break;
        const item = best.buffer.shift() as Item;
        rows.push(item);
        best.taken = best.exhausted && !best.buffer.length ? 'done' : keyOf(item);
        took = true;
        if (rows.length === stop.mark) marked = { bucket, starts: streams.map((s) => s.taken) };
      }
      const drained = streams.every((s) => s.exhausted && !s.buffer.length);
      if (rows.length >= stop.matches || spent || drained || !took) {
        for (const s of streams) if (s.exhausted && !s.buffer.length) s.taken = 'done';
        last = { bucket, starts: streams.map((s) => s.taken) };
        if (rows.length >= stop.matches || spent) {
          const more = !drained || at < buckets.length - 1;
          return { rows, rcu, scanned, more, next: more ? last : undefined, marked };
        }
        if (drained) break;
      }
    }
  }
  return { rows, rcu, scanned, more: false, next: undefined, marked };
}
