// Spread partitions: an entity that declares `partitioning` (entity.ts) writes its rows to many
// index partitions instead of one, so no partition takes a whole type's writes.
//
// A *base* partition is what a list asks for: the type (`check_log`) or a slot value
// (`check_log:process=3`). The base partitions an entity spreads are byType and its enum/boolean
// slots (they hold a large share of the type's rows); foreign-id slots (`task_id=7`) are spread by
// their values already and stay whole. A spread base is stored as *physical* partitions:
//
//   `${base}#b=${bucket}`            time bucket of created_at (UTC day `2026-11-23` or hour `2026-11-23T14`)
//   `${base}#b=${bucket}#s=${shard}` and a write shard (id % shards), when shards > 1
//   `${base}#s=${shard}`             shards without buckets
//
// Each physical partition keeps its own count (counters.ts), in one item per bucket (and shard) of
// the type: pk `count#${type}` (`#s=${shard}` with shards), sk the bucket ('count' without buckets),
// one attribute per base (`n` for the type, `field=value` for a slot value), so one Query per shard
// returns every bucket's count of a base. The sum is the base's total; a created_at range sums the buckets
// it covers and counts rows only in its two edge buckets. A list walks the buckets its counters name
// (plus the current one), newest first, and merges the shards of a bucket by key order.

import { ENTITIES, specOf } from './entity.js';
import type { BucketUnit, Partitioning } from './partitioning.js';

export type { BucketUnit, Partitioning } from './partitioning.js';

interface Spreadable {
  type: string;
  fields: Parameters<typeof specOf>[0]['fields'];
  keys?: readonly string[];
  partitioning?: Partitioning;
}

/** How a base partition of `def` is spread, or undefined when it is one partition. */
export function spreadOf(def: Spreadable, slotField?: string): Required<Partitioning> | undefined {
  const p = def.partitioning;
  if (!p || (!p.bucket && (p.shards ?? 1) <= 1)) return undefined;
  if (slotField !== undefined) {
    const type = specOf(def, slotField)?.type;
    if (type !== 'enum' && type !== 'boolean') return undefined;
  }
  return { bucket: p.bucket as BucketUnit, shards: Math.max(1, p.shards ?? 1) };
}

const BUCKET = '#b=';
const SHARD = '#s=';

/** The bucket id of a creation time: 'YYYY-MM-DD' or 'YYYY-MM-DDTHH' (UTC), ordered as strings. */
export function bucketOf(createdAt: number, unit: BucketUnit): string {
  const iso = new Date(Math.max(0, createdAt)).toISOString();
  return unit === 'day' ? iso.slice(0, 10) : iso.slice(0, 13);
}

/** First and last millisecond of a bucket. */
export function bucketSpan(bucket: string): { start: number; end: number } {
  const hour = bucket.length > 10;
  const start = Date.parse(hour ? `${bucket}:00:00.000Z` : `${bucket}T00:00:00.000Z`);
  return { start, end: start + (hour ? 3600_000 : 86400_000) - 1 };
}

export function shardOf(id: number, shards: number): number {
  return shards > 1 ? id % shards : 0;
}

/** The physical partition a row of `base` is written to. */
export function physicalPartition(
  base: string,
  spread: Required<Partitioning>,
  row: { id: number; created_at: number },
): string {
  return physical(
    base,
    spread.bucket ? bucketOf(row.created_at, spread.bucket) : undefined,
    spread.shards > 1 ? shardOf(row.id, spread.shards) : undefined,
  );
}

export function physical(base: string, bucket?: string, shard?: number): string {
  return `${base}${bucket ? `${BUCKET}${bucket}` : ''}${shard === undefined ? '' : `${SHARD}${shard}`}`;
}

const PHYSICAL = /^(.*?)(?:#b=(\d{4}-\d\d-\d\d(?:T\d\d)?))?(?:#s=(\d+))?$/;

/** The base, bucket and shard of a partition value (an unspread partition is its own base). */
export function parsePartition(partition: string): { base: string; bucket?: string; shard?: number } {
  const m = PHYSICAL.exec(partition) as RegExpExecArray;
  return { base: m[1], bucket: m[2], shard: m[3] === undefined ? undefined : Number(m[3]) };
}

export const COUNT_PREFIX = 'count#';

/** Where a partition's count is kept: an item and the attribute of that item. */
export interface CounterSlot {
  pk: string;
  sk: string;
  attr: string;
}

/** A base's type and, for a slot base (`type:field=value`), its `field=value` and its field. */
export function splitBase(base: string): { type: string; slot?: string; field?: string } {
  const colon = base.indexOf(':');
  if (colon < 0) return { type: base };
  const slot = base.slice(colon + 1);
  return { type: base.slice(0, colon), slot, field: slot.split('=')[0] };
}

/**
 * Whether a slot of an unspread type takes few values (an enum or a boolean): its values' counts
 * share one item per field (pk `count#${type}:${field}`, an attribute per `field=value`), so a row
 * that moves between two values (a subtask Pending -> Running -> Done) moves one item, not two.
 * A foreign id's values are unbounded: each keeps an item of its own.
 */
function isValueSlot(type: string, field: string): boolean {
  const def = ENTITIES.get(type);
  const kind = def && specOf(def, field)?.type;
  return kind === 'enum' || kind === 'boolean';
}

/** The counter group of a type (EntityDef.counterGroup), if it declares one. */
const groupOf = (type: string): string | undefined => ENTITIES.get(type)?.counterGroup;
/** A group's counter items are named `count#@group...`: no type name starts with '@'. */
const GROUP_MARK = '@';

/** Whether a counter item is shared by the types of a group (its attributes name their types). */
export const isGroupCounter = (pk: string): boolean => pk.startsWith(`${COUNT_PREFIX}${GROUP_MARK}`);

/**
 * The counter of a partition. An unspread partition has an item of its own: pk `count#` + the
 * partition, sk 'count', attribute `n`; but the values of an enum or boolean slot of an unspread
 * type share their field's item (isValueSlot: pk `count#${type}:${field}`, attribute `field=value`). The spread partitions of one bucket (and shard) share one
 * item, pk `count#${type}[#s=k]`, sk the bucket ('count' when unbucketed): the type's own count in
 * `n`, each enum/boolean slot value's in an attribute named `field=value`. A row sits in one spread
 * partition per base, all in the same bucket and shard, so creating, deleting or moving it is one
 * `ADD` on that item however many bases it is in.
 *
 * A type of a counter group (EntityDef.counterGroup) shares those items with the group's other
 * types: its spread partitions are in the group's bucket item (pk `count#@${group}[#s=k]`,
 * attribute the type, or `type:field=value`), its foreign-id slots in one item per value for the
 * group (pk `count#@${group}:${field}=${value}`, attribute the type). A statement and its
 * notification then move two items' counts (the day's, the account's), not five.
 */
export function listTotalKey(partition: string): CounterSlot {
  const { base, bucket, shard } = parsePartition(partition);
  if (bucket === undefined && shard === undefined) {
    const { type, slot, field } = splitBase(base);
    const group = groupOf(type);
    if (group !== undefined && slot !== undefined)
      return { pk: `${COUNT_PREFIX}${GROUP_MARK}${group}:${slot}`, sk: 'count', attr: type };
    if (slot !== undefined && field !== undefined && isValueSlot(type, field))
      return { pk: `${COUNT_PREFIX}${type}:${field}`, sk: 'count', attr: slot };
    return { pk: `${COUNT_PREFIX}${base}`, sk: 'count', attr: 'n' };
  }
  return spreadCounterKey(base, bucket, shard);
}

/** The counter of a spread base's partition in `bucket` (and `shard`): its bucket's item of the type (or group). */
export function spreadCounterKey(base: string, bucket: string | undefined, shard: number | undefined): CounterSlot {
  const { type, slot } = splitBase(base);
  const group = groupOf(type);
  if (group !== undefined)
    return {
      pk: `${COUNT_PREFIX}${physical(`${GROUP_MARK}${group}`, undefined, shard)}`,
      sk: bucket ?? 'count',
      attr: slot ? `${type}:${slot}` : type,
    };
  return { pk: `${COUNT_PREFIX}${physical(type, undefined, shard)}`, sk: bucket ?? 'count', attr: slot ?? 'n' };
}

/** The type of a partition value. */
export const typeOfPartition = (partition: string): string => splitBase(parsePartition(partition).base).type;

/**
 * The partitions a counter item counts and their counts (the inverse of listTotalKey). An item of
 * the layout before 2026-11-25, one per spread slot base (pk `count#type:field=value`), reads as
 * that base's partition; listTotalKey then names another item for it, which is how repair finds it.
 * So does a grouped type's item from before its group (2026-11-27).
 */
export function countsOfCounter(item: Record<string, unknown>): Array<[partition: string, n: number]> {
  const { base, shard } = parsePartition((item.pk as string).slice(COUNT_PREFIX.length));
  const bucket = item.sk === 'count' ? undefined : (item.sk as string);
  if (base.startsWith(GROUP_MARK)) {
    const { slot } = splitBase(base);
    return Object.entries(item).flatMap(([attr, n]): Array<[string, number]> => {
      if (attr === 'pk' || attr === 'sk') return [];
      // A foreign-id item: one attribute per type. A bucket item: `type` or `type:field=value`.
      return slot !== undefined ? [[`${attr}:${slot}`, Number(n)]] : [[physical(attr, bucket, shard), Number(n)]];
    });
  }
  if (bucket === undefined && shard === undefined) {
    const { type, slot } = splitBase(base);
    // A value slot's item (`count#type:field`): one attribute per `field=value`.
    if (slot !== undefined && !slot.includes('='))
      return Object.entries(item).flatMap(
        ([attr, n]): Array<[string, number]> => (attr.startsWith(`${slot}=`) ? [[`${type}:${attr}`, Number(n)]] : []),
      );
    return [[base, Number(item.n ?? 0)]];
  }
  return Object.entries(item).flatMap(([attr, n]): Array<[string, number]> => {
    if (attr === 'n') return [[physical(base, bucket, shard), Number(n)]];
    return attr.includes('=') ? [[physical(`${base}:${attr}`, bucket, shard), Number(n)]] : [];
  });
}
