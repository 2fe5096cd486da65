// API answers stored whole, one record per answer key, for every instance to serve
// (functions/lib/http/keptAnswers.ts). The body is gzipped: a dashboard answer of ~95 KB of JSON
// is ~10-20 KB stored, so a read is a few read units and a refresh a few write units per KB saved.

import { gunzipSync, gzipSync } from 'node:zlib';
import { keyedRecords } from './keyedRecords.js';

/** An answer as it goes out: the envelope's body and the headers the route set. */
export interface StoredAnswer {
  body: string;
  headers: Record<string, string>;
  /** When the reads it was computed from began (epoch ms). */
  madeAt: number;
  /** The refresher keeps it fresh (its route's `refreshAhead`). */
  kept: boolean;
}

interface AnswerRecord {
  made_at: number;
  kept: boolean;
  /** gzip of `{ body, headers }` as JSON. */
  z: Uint8Array;
}

// Overwritten in place. The kept ones are a fixed few (the queries routes declare); the others, one
// per query asked of such a route (a site's timings), live a day after their last write.
const records = keyedRecords<AnswerRecord>('answer', { sk: 'answer', ttlSeconds: 86_400 });

export async function readStoredAnswer(key: string): Promise<{ answer: StoredAnswer | undefined; rcu: number }> {
  const { record, rcu } = await records.getMeasured(key);
  if (!record?.z || typeof record.made_at !== 'number') return { answer: undefined, rcu };
  const { body, headers } = JSON.parse(gunzipSync(record.z).toString('utf8')) as Omit<StoredAnswer, 'madeAt'>;
  return { answer: { body, headers, madeAt: record.made_at, kept: record.kept === true }, rcu };
}

export async function storeAnswer(key: string, answer: StoredAnswer): Promise<void> {
  const z = gzipSync(JSON.stringify({ body: answer.body, headers: answer.headers }));
  await records.put(key, {
    made_at: answer.madeAt,
    kept: answer.kept,
    z: new Uint8Array(z.buffer, z.byteOffset, z.byteLength),
  });
}
