// Numeric ids from one counter item per type: a single atomic ADD, so parallel creates never
// share an id. A crash between allocating and writing the row only leaves a gap, never a clash.
//
// A high-volume type (EntityDef.idBlock) reserves its ids a block at a time: one ADD hands this
// process the next `block` ids, and creates take them from memory until they run out. A create
// then waits for no id write (a bank notification is written and queued one round trip sooner),
// and a block of 20 costs one write unit instead of 20. What that gives up: ids of rows written
// by two processes at once interleave (each process's ids still rise), and a process that ends
// leaves the rest of its block unused. Nothing orders rows by id (lists order by created_at), and
// gaps were already possible.

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';

export function counterKey(type: string): { pk: string; sk: string } {
  return { pk: `counter#${type}`, sk: 'counter' };
}

interface Block {
  next: number;
  last: number;
  /** The ADD that refills the block, shared by the creates waiting for it. */
  refill?: Promise<void>;
}

/**
 * Reserved ids per client (a new engine or endpoint gets a new client: resetClients) and per
 * table and type, so a block never outlives the counter it came from.
 */
const blocks = new WeakMap<object, Map<string, Block>>();

function blockOf(type: string): Block {
  const client = dynamoClient();
  const byType = blocks.get(client) ?? new Map<string, Block>();
  blocks.set(client, byType);
  const name = `${config.tableName}#${type}`;
  const block = byType.get(name) ?? { next: 1, last: 0 };
  byType.set(name, block);
  return block;
}

/** The next id of `type` (1, 2, 3...); with `block` > 1, from this process's reserved block. */
export async function nextId(type: string, block = 1): Promise<number> {
  if (block <= 1) return (await nextIds(type, 1))[0];
  const reserved = blockOf(type);
  while (reserved.next > reserved.last) {
    reserved.refill ??= nextIds(type, block)
      .then((ids) => {
        reserved.next = ids[0];
        reserved.last = ids[ids.length - 1];
      })
      .finally(() => {
        reserved.refill = undefined;
      });
    await reserved.refill;
  }
  return reserved.next++;
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
