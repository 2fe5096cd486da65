// Expiry of rows with a TTL (`expires_at`, epoch seconds) and the counters they leave.
//
// In the cloud DynamoDB's TTL deletes expired rows (within a day or two) and the stream handler
// (functions/data/expiryStream.ts) moves the counters of the partitions each deleted row was in.
// The sweeper below does the same work on a timer: locally it is the only expiry (dynalite has no
// TTL), in the cloud it makes expiry timely. It reads only expired rows: key order is creation
// order, so `created_at <= now - ttl` is a key condition on byType. Each delete is conditional on
// the row still being expired and returns the old item, so exactly one of sweeper and TTL moves
// the counters of a row (the stream handler skips deletes made by anyone but DynamoDB's TTL).

import { DeleteCommand, type NativeAttributeValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { isConditionFailure } from './conditionFailure.js';
import { moveCounters, partitionsOf, readBucketCounters } from './counters.js';
import { bucketSpan, type Partitioning, physical, spreadOf } from './partitions.js';
import { ttlSecondsOf } from './retention.js';
import { CURSOR_PREFIX, CURSOR_TTL_MS } from './cursors.js';
import { TABLE_INDEXES, TTL_ATTRIBUTE } from './tableSchema.js';
import { timeKeyBounds } from './timeKey.js';

type Item = Record<string, NativeAttributeValue>;
const byType = TABLE_INDEXES[0];
/** Rows deleted per sweep and type, so one tick stays short; the next tick continues. */
const SWEEP_MAX = 1000;

/** Takes an expired row's partitions out of their counts (stream handler and sweeper). */
export function countExpired(old: Item | undefined): Promise<void> {
  return moveCounters(partitionsOf(old), -1);
}

/** Deletes the expired rows of one entity (at most SWEEP_MAX), moving their counters; returns how many. */
export async function sweepExpired(
  def: Parameters<typeof ttlSecondsOf>[0] & Parameters<typeof spreadOf>[0],
  now = Date.now(),
  /** What else goes with an expired row (its files); runs after the row is deleted and counted. */
  onExpired?: (old: Item) => Promise<void>,
): Promise<number> {
  const ttl = await ttlSecondsOf(def);
  if (!ttl) return 0;
  // Rows written under a longer retention are skipped by the expiry condition below and come up
  // again on later sweeps; rows of a since-lengthened one wait for the created_at bound to reach them.
  const cutoff = now - ttl * 1000;
  const { high } = timeKeyBounds(undefined, cutoff);
  // The type's byType partitions holding rows this old: the whole one, or (spread) the buckets that
  // start before the cutoff. The whole one is read for a spread type too: rows of an older layout
  // sit there until the repair path re-indexes them.
  const partitions = [def.type, ...(await expiredPartitions(def.type, spreadOf(def), cutoff))];
  const keys: Item[] = [];
  for (const partition of partitions) {
    if (keys.length >= SWEEP_MAX) break;
    const out = await dynamoClient().send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: byType.name,
        KeyConditionExpression: '#p = :p AND #s <= :high',
        ExpressionAttributeNames: { '#p': byType.partitionKey, '#s': byType.sortKey },
        ExpressionAttributeValues: { ':p': partition, ':high': high },
        ProjectionExpression: 'pk, sk',
        Limit: SWEEP_MAX - keys.length,
      }),
    );
    keys.push(...(out.Items ?? []));
  }
  let swept = 0;
  const nowSeconds = Math.floor(now / 1000);
  for (const key of keys) {
    try {
      const gone = await dynamoClient().send(
        new DeleteCommand({
          TableName: config.tableName,
          Key: { pk: key.pk, sk: key.sk },
          ConditionExpression: '#e <= :now',
          ExpressionAttributeNames: { '#e': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':now': nowSeconds },
          ReturnValues: 'ALL_OLD',
        }),
      );
      await countExpired(gone.Attributes);
      if (onExpired && gone.Attributes) await onExpired(gone.Attributes);
      swept++;
    } catch (error) {
      // Gone meanwhile (TTL, a remove) or its created_at moved: someone else counted it.
      if (!isConditionFailure(error)) throw error;
    }
  }
  return swept;
}

/** The physical byType partitions of a spread type whose bucket starts at or before `cutoff`. */
async function expiredPartitions(
  type: string,
  spread: Required<Partitioning> | undefined,
  cutoff: number,
): Promise<string[]> {
  if (!spread) return [];
  const shards = Array.from({ length: spread.shards }, (_, s) => (spread.shards > 1 ? s : undefined));
  if (!spread.bucket) return shards.map((s) => physical(type, undefined, s));
  const { buckets } = await readBucketCounters(type, spread);
  return [...buckets.keys()]
    .filter((b) => bucketSpan(b).start <= cutoff)
    .sort()
    .flatMap((b) => shards.map((s) => physical(type, b, s)));
}

/** Deletes the list cursors of a type older than their lifetime (the cloud's TTL does this too). */
export async function sweepCursors(type: string, now = Date.now()): Promise<number> {
  const out = await dynamoClient().send(
    new QueryCommand({
      TableName: config.tableName,
      KeyConditionExpression: 'pk = :p',
      FilterExpression: '#at < :old',
      ExpressionAttributeNames: { '#at': 'at' },
      ExpressionAttributeValues: { ':p': `${CURSOR_PREFIX}${type}`, ':old': now - CURSOR_TTL_MS },
      ProjectionExpression: 'pk, sk',
      Limit: SWEEP_MAX,
    }),
  );
  await Promise.all(
    (out.Items ?? []).map((k) =>
      dynamoClient().send(new DeleteCommand({ TableName: config.tableName, Key: { pk: k.pk, sk: k.sk } })),
    ),
  );
  return out.Items?.length ?? 0;
}
