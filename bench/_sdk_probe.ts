import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamo, ensureTable } from '../scripts/local/engines/dynamo.js';
import { LOCAL_CREDENTIALS } from '../scripts/local/engines/credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'sdkb-'));
const h = await startDynamo({ dataDir: dir, engine: 'dynalite' });
await ensureTable(h.endpoint, 'tbl');
process.env.AWS_REGION = 'us-east-1';
function make(extra: Record<string, unknown>) {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: 'us-east-1',
      endpoint: h.endpoint,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 5,
      ...extra,
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
}
async function run(label: string, c: DynamoDBDocumentClient, n = 1500, par = 10) {
  // warm
  for (let i = 0; i < 50; i++)
    await c.send(
      new UpdateCommand({
        TableName: 'tbl',
        Key: { pk: 'count#x', sk: 'count' },
        UpdateExpression: 'ADD #n :one',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let i = 0;
  await Promise.all(
    Array.from({ length: par }, async () => {
      while (i++ < n)
        await c.send(
          new UpdateCommand({
            TableName: 'tbl',
            Key: { pk: `count#x${i % 7}`, sk: 'count' },
            UpdateExpression: 'ADD #n :one',
            ExpressionAttributeNames: { '#n': 'n' },
            ExpressionAttributeValues: { ':one': 1 },
          }),
        );
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - t0;
  console.log(label, 'cpu/call ms', ((cpu.user + cpu.system) / 1000 / n).toFixed(3), 'wall/call', (ms / n).toFixed(3));
}
await run('default', make({}));
await run('default again', make({}));
const { NodeHttpHandler } = await import('@smithy/node-http-handler');
const http = await import('node:http');
await run(
  'keepAlive agent',
  make({ requestHandler: new NodeHttpHandler({ httpAgent: new http.Agent({ keepAlive: true, maxSockets: 50 }) }) }),
);
await run('default 3', make({}));
await h.stop();
