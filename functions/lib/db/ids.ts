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
  const out = await dynamoClient().send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: counterKey(type),
      UpdateExpression: 'ADD #seq :one',
      ExpressionAttributeNames: { '#seq': 'seq' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return out.Attributes?.seq as number;
}
