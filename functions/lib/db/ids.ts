// Numeric ids from one counter item per type: a single atomic ADD, so parallel creates never
// share an id. A crash between allocating and writing the row only leaves a gap, never a clash.
//
// High-volume rows (statements, bank notifications) take their ids from a block each process
// reserves (EntityDef `ids: 'blocks'`): one round trip to the counter per hundred rows.

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { outsideSequences } from './faults.js';

/** The item holding a type's id sequence (`seq`): not a list total (partitions.ts listTotalKey). */
export function sequenceKey(type: string): { pk: string; sk: string } {
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
      Key: sequenceKey(type),
      UpdateExpression: 'ADD #seq :n',
      ExpressionAttributeNames: { '#seq': 'seq' },
      ExpressionAttributeValues: { ':n': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = out.Attributes?.seq as number;
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** Ids a process takes from a type's counter at once (`ids: 'blocks'`). */
export const ID_BLOCK = 100;
const blocks = new Map<string, Promise<{ next: number; end: number }>>();

/**
 * The next id of `type` from this process's block: one ADD of ID_BLOCK on the type's counter, then
 * ids handed out without a call until the block is used up. Ids stay small and unique (the ADD is
 * atomic); a process that ends leaves the rest of its block unused (a gap), and ids of two
 * processes interleave in creation order (lists order by created_at, which the key carries).
 */
export async function idFromBlock(type: string): Promise<number> {
  for (;;) {
    let block = blocks.get(type);
    if (!block) {
      // The block is the process's, not the caller's: taken outside the caller's crash-test sequence.
      block = outsideSequences(() => nextIds(type, ID_BLOCK)).then((ids) => ({
        next: ids[0] as number,
        end: (ids.at(-1) as number) + 1,
      }));
      blocks.set(type, block);
      block.catch(() => blocks.delete(type));
    }
    const current = await block;
    if (current.next < current.end) return current.next++;
    if (blocks.get(type) === block) blocks.delete(type);
  }
}

/**
 * An id for a row of `def` written later (`create(data, { id })`), taken the way its create would take
 * it: from this process's block for a type with `ids: 'blocks'`, else from the type's counter.
 */
export function newIdOf(def: { type: string; ids?: 'counter' | 'blocks' }): Promise<number> {
  return def.ids === 'blocks' ? idFromBlock(def.type) : nextId(def.type);
}
