// A short-lived cache of where each page of a key-ordered list starts, so that moving to page N+1
// continues from page N's LastEvaluatedKey instead of re-reading pages 1..N (offset paging).
//
// Item: pk = `cursor#${type}`, sk = `${hash of the query's key condition, filter, order and page
// size}#${page}`, holding the ExclusiveStartKey of that page. Written when the page before it is
// served; read (0.5 RCU) when the page is asked for. A miss (first visit, expired,
// another container's write not yet there) falls back to reading page × page_size rows, so a
// direct jump to page N reads at most N pages; that read keeps where page N itself starts too, so
// the open table's refresh of a jumped-to page reads one page, not N. Cursors live CURSOR_TTL_MS (TTL in the cloud, the
// sweeper locally). The cache is keyed by the query, not by the viewer: two people paging the
// same query at once share cursors (each sees whole pages; a page may start where the other's
// previous page ended).
//
// A page's answer does not wait for the next page's cursor: the write runs on after the reply
// (a lost write is only a miss). The process keeps its newest cursors too, so a next page served
// by the same process (the local server, a warm Lambda) starts at once, with no read at all.
// A cursor this process wrote in the last half of its life is not written again when a page
// ends at the same key: an open table refreshes its page every 5 s, and while no row arrives
// each refresh would rewrite the same item (a write unit, and a write the engine serves before
// the next read).

import { createHash } from 'node:crypto';
import { GetCommand, type NativeAttributeValue, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../aws/clients.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { TTL_ATTRIBUTE } from './tableSchema.js';

export const CURSOR_PREFIX = 'cursor#';
export const CURSOR_TTL_MS = 10 * 60 * 1000;

type Key = Record<string, NativeAttributeValue>;

export function cursorHash(parts: unknown): string {
  return createHash('sha1').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

const key = (type: string, hash: string, page: number) => ({ pk: `${CURSOR_PREFIX}${type}`, sk: `${hash}#${page}` });

/** This process's newest cursors, oldest first (a Map keeps insertion order). */
const recent = new Map<string, { start: Key; at: number }>();
const RECENT_MAX = 2_000;
const fresh = (at: number) => at > Date.now() - CURSOR_TTL_MS;
const memoryKey = (type: string, hash: string, page: number) => `${type}#${hash}#${page}`;

export async function readCursor(type: string, hash: string, page: number): Promise<{ start?: Key; rcu: number }> {
  const mine = recent.get(memoryKey(type, hash, page));
  if (mine && fresh(mine.at)) return { start: mine.start, rcu: 0 };
  const out = await dynamoClient().send(
    new GetCommand({
      TableName: config.tableName,
      Key: key(type, hash, page),
      // Eventually consistent (0.5 RCU): people page seconds apart, and a miss only costs a skip-read.
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  const found = out.Item && fresh(Number(out.Item.at));
  return { start: found ? (out.Item?.start as Key) : undefined, rcu: out.ConsumedCapacity?.CapacityUnits ?? 0.5 };
}

/** Drops this process's cursors: what a cold process sees (tests). */
export function forgetProcessCursors(): void {
  recent.clear();
}

/** Keeps where `page` starts, here at once and in the table in the background; never throws. */
export function rememberCursor(type: string, hash: string, page: number, start: Key): void {
  const now = Date.now();
  const id = memoryKey(type, hash, page);
  const mine = recent.get(id);
  recent.delete(id);
  // `at` is when the table's copy was written: an unchanged cursor keeps it, and is written again
  // once half its life has gone, so the table's copy never expires while the page is in use.
  if (mine && mine.at > now - CURSOR_TTL_MS / 2 && sameKey(mine.start, start)) {
    recent.set(id, mine);
    return;
  }
  recent.set(id, { start, at: now });
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
  writeCursor(type, hash, page, start, now).catch((error: unknown) =>
    logger.warn('list cursor not written (the next page will skip-read)', { type, error: error as Error }),
  );
}

// LastEvaluatedKeys of one query name the same attributes in the same order.
const sameKey = (a: Key, b: Key) => JSON.stringify(a) === JSON.stringify(b);

async function writeCursor(type: string, hash: string, page: number, start: Key, now: number): Promise<void> {
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
