import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamo } from '../../scripts/local/engines/dynamo.js';
import type { Json } from './api.js';

export type Row = Record<string, Json>;

/**
 * The table as a killed stack left it: read by an engine of the test's own on the stack's files
 * (`<dataDir>/dynamo`), before the restart touches anything. The kill tests assert on it.
 */
export async function tableAfterCrash(dataDir: string): Promise<Row[]> {
  const engine = await startDynamo({ dataDir: join(dataDir, 'dynamo'), engine: 'dynalite' });
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: 'us-east-1',
      endpoint: engine.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  try {
    const items: Row[] = [];
    let start: Row | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: 'patrol', ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  } finally {
    client.destroy();
    await engine.stop();
  }
}
