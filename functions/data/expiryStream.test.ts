import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from './expiryStream.js';

// Cloud path: a TTL delete of a video row on the table stream takes its file out of the bucket;
// a delete made by the product (already counted, files handled by whoever deleted) is left alone.

const s3 = mockClient(S3Client);
const dynamo = mockClient(DynamoDBDocumentClient);
afterAll(() => {
  s3.restore();
  dynamo.restore();
});
beforeEach(() => {
  s3.reset();
  dynamo.reset();
  s3.on(DeleteObjectCommand).resolves({});
  dynamo.on(UpdateCommand).resolves({});
});

const ttl = { type: 'Service', principalId: 'dynamodb.amazonaws.com' };
const record = (item: Record<string, unknown>, userIdentity?: object, seq = '1') =>
  ({
    eventName: 'REMOVE',
    ...(userIdentity ? { userIdentity } : {}),
    dynamodb: { SequenceNumber: seq, OldImage: marshall(item) },
  }) as unknown as DynamoDBStreamEvent['Records'][number];

describe('expiry stream', () => {
  it("deletes an expired video row's file and an expired raw log's screenshot", async () => {
    const out = await handler({
      Records: [
        record({ pk: 'video#7', sk: 'item', gsi1pk: 'video', key: 'checks/1/2/3-abc.webm' }, ttl),
        record({ pk: 'raw_log#8', sk: 'item', gsi1pk: 'raw_log', screenshot_key: 'checks/1/2/3-abc.png' }, ttl, '2'),
        record({ pk: 'check_log#9', sk: 'item', gsi1pk: 'check_log' }, ttl, '3'),
      ],
    });
    expect(out.batchItemFailures).toEqual([]);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([
      'checks/1/2/3-abc.webm',
      'checks/1/2/3-abc.png',
    ]);
  });

  it('leaves the files of rows the product deleted itself', async () => {
    await handler({ Records: [record({ pk: 'video#7', sk: 'item', key: 'checks/1/2/3-abc.webm' })] });
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it('reports a record whose file could not be deleted, so the stream retries it', async () => {
    s3.on(DeleteObjectCommand).rejects(new Error('SlowDown'));
    const out = await handler({
      Records: [record({ pk: 'video#7', sk: 'item', gsi1pk: 'video', key: 'checks/x.webm' }, ttl, '42')],
    });
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: '42' }]);
  });
});
