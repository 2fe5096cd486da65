// A short-lived cache of where each page of a key-ordered list starts, so that moving to page N+1
// continues from page N's LastEvaluatedKey instead of re-reading pages 1..N (offset paging).
//
// Item: pk = `cursor#${type}`, sk = `${hash of the query's key condition, filter, order and page
// size}#${page}`, holding the ExclusiveStartKey of that page. Written when the page before it is
// served; read (0.5 RCU) when the page is asked for. A miss (first visit, expired,
// another container's write not yet there) falls back to reading page × page_size rows, so a
// direct jump to page N reads at most N pages. Cursors live CURSOR_TTL_MS (TTL in the cloud, the
// sweeper locally). The cache is keyed by the query, not by the viewer: two people paging the
// same query at once share cursors (each sees whole pages; a page may start where the other's
// previous page ended).

import { createHash } from 'node:crypto';
import { GetCommand, type NativeAttributeValue, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { TTL_ATTRIBUTE } from './tableSchema.js';

export const CURSOR_PREFIX = 'cursor#';
export const CURSOR_TTL_MS = 10 * 60 * 1000;

type Key = Record<string, NativeAttributeValue>;

export function cursorHash(parts: unknown): string {
  return createHash('sha1').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

const key = (type: string, hash: string, page: number) => ({ pk: `${CURSOR_PREFIX}${type}`, sk: `${hash}#${page}` });

export async function readCursor(type: string, hash: string, page: number): Promise<{ start?: Key; rcu: number }> {
  const out = await dynamoClient().send(
    new GetCommand({
      TableName: config.tableName,
      Key: key(type, hash, page),
      // Eventually consistent (0.5 RCU): people page seconds apart, and a miss only costs a skip-read.
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  const fresh = out.Item && Number(out.Item.at) > Date.now() - CURSOR_TTL_MS;
  return { start: fresh ? (out.Item?.start as Key) : undefined, rcu: out.ConsumedCapacity?.CapacityUnits ?? 0.5 };
}

export async function writeCursor(type: string, hash: string, page: number, start: Key): Promise<void> {
  const now = Date.now();
  await dynamoClient().send(
    new PutCommand({
      TableName: config.tableName,
      Item: {
        ...key(type, hash, page),
        start,
        at: now,
        [TTL_ATTRIBUTE]: Math.ceil((now + CURSOR_TTL_MS) / 1000),
      },
    }),
  );
}
