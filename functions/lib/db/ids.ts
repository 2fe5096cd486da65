// Numeric ids from one counter item per type: a single atomic ADD, so parallel creates never
// share an id. A crash between allocating and writing the row only leaves a gap, never a clash.
//
// High-volume rows written by many writers at once (statements, bank notifications) take
// time-ordered ids instead (EntityDef `ids: 'time'`): no round trip to a counter item, and a clash
// of two writers is refused by the row's own conditional put, which then tries another id.

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';

export function counterKey(type: string): { pk: string; sk: string } {
  return { pk: `counter#${type}`, sk: 'counter' };
}

/** The next id of `type` (1, 2, 3...). */
export async function nextId(type: string): Promise<number> {
  return (await nextIds(type, 1))[0];
}

/** `count` consecutive ids of `type` in one atomic ADD, for writing many rows at once. */
export async function nextIds(type: string, count: number): Promise<number[]> {
  if (count < 1) return [];
  const out = await dynamoClient().send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: counterKey(type),
      UpdateExpression: 'ADD #seq :n',
      ExpressionAttributeNames: { '#seq': 'seq' },
      ExpressionAttributeValues: { ':n': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = out.Attributes?.seq as number;
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** Time-ordered ids count milliseconds from here (2024-01-01 UTC), so they stay within 15 digits until 2055. */
const TIME_ID_EPOCH = Date.UTC(2024, 0, 1);
/** Ids per millisecond: the low bits, random per process and then counting up. */
const PER_MS = 1024;
let lastTimeId = 0;

/**
 * An id ordered by `at` (ms): (at − epoch) × 1024 + a random start, counting up within this
 * process so it never hands out the same id twice. Another process may pick the same one; the
 * caller's conditional write tells, and it asks again.
 */
export function timeOrderedId(at = Date.now()): number {
  const base = (Math.max(at, TIME_ID_EPOCH) - TIME_ID_EPOCH) * PER_MS;
  const candidate = base + Math.floor(Math.random() * (PER_MS / 2));
  lastTimeId = candidate > lastTimeId ? candidate : lastTimeId + 1;
  return lastTimeId;
}
