// Numeric ids from one counter item per type: a single atomic ADD, so parallel creates never
// share an id. A crash between allocating and writing the row only leaves a gap, never a clash.

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
