import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import { dynamoClient } from '../../../functions/lib/aws/clients.js';
import { config } from '../../../functions/lib/config.js';
import { sendToQueue } from '../../../functions/lib/queue/sendToQueue.js';
import { sqsRecordHandler } from '../../../functions/lib/queue/sqsRecordHandler.js';

// A test Lambda for stack.test.ts, registered under every trigger kind: it leaves a row in
// the table for each invocation, so the test sees the wiring from outside.

const record = (pk: string) =>
  dynamoClient().send(new PutCommand({ TableName: config.tableName, Item: { pk, sk: 'wiring', at: Date.now() } }));

const onMessage = sqsRecordHandler(z.object({ n: z.number() }), async ({ n }) => {
  await record(`wiring#message#${n}`);
});

export async function handler(event: { source?: string; 'detail-type'?: string; Records?: unknown[] }) {
  if (event.Records) return onMessage(event as SQSEvent);
  if (event.source === 'patrol.local') {
    await record('wiring#startup');
    await sendToQueue('check', [{ n: 1 }, { n: 2 }]);
    return;
  }
  if (event['detail-type'] === 'Scheduled Event') await record('wiring#tick');
}
