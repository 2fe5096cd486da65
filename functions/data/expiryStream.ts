import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { countExpired } from '../lib/db/expiry.js';
import { deleteExpiredFiles } from './expiredFiles.js';

/** DynamoDB's TTL service signs its deletes so; every other delete moved its counters itself. */
function isTtlDelete(record: DynamoDBStreamEvent['Records'][number]): boolean {
  const identity = (record as { userIdentity?: { type?: string; principalId?: string } }).userIdentity;
  return (
    record.eventName === 'REMOVE' && identity?.type === 'Service' && identity.principalId === 'dynamodb.amazonaws.com'
  );
}

/**
 * Cloud only (table stream, OLD_IMAGE): rows DynamoDB's TTL deleted leave the counts of the index
 * partitions they were in, and their files go with them (functions/data/expiredFiles.ts). The event
 * source filters to TTL deletes already; the check here keeps the handler right if that filter is
 * ever loosened. A failed record is reported so the stream
 * retries from it (a retried ADD may count twice: the repair path recounts).
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records) {
    if (!isTtlDelete(record) || !record.dynamodb?.OldImage) continue;
    try {
      const old = unmarshall(record.dynamodb.OldImage as Parameters<typeof unmarshall>[0]);
      await countExpired(old);
      await deleteExpiredFiles(old);
    } catch {
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
};
