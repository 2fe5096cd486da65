// The first page of a newest-first list over a spread base, read at the same time as its bucket
// counters instead of after them.
//
// A spread read needs the counters to know which buckets hold rows, and only then reads the
// newest of them: two round trips, or three when the current bucket is empty (a quiet type, just
// after midnight UTC), since the current bucket is always read. The first page is the call an open
// table repeats every 5 s, so it guesses instead: the current bucket and the newest bucket that
// held rows when this process last read the base's counters. The guess is read alongside the
// counters and kept only when the counters confirm it (the guessed buckets are the first ones the
// counters name, in order), so the page is the same as a read after the counters; a wrong guess
// (a newer bucket got rows, or the hinted one emptied) costs its read units and falls back to
// the ordinary read.

import { bucketOf, type Partitioning } from './partitions.js';
import type { SpreadPosition, SpreadRead } from './spreadRead.js';

/**
 * Newest bucket with rows, per spread base, as this process last counted it. Spread bases are
 * the types and their enum / boolean slots (foreign-id slots are never spread): a few hundred
 * entries at most.
 */
const newestWithRows = new Map<string, string>();

export function rememberNewestBucket(base: string, counted: Map<string, number[]>): void {
  let newest: string | undefined;
  for (const [bucket, perShard] of counted) {
    if (perShard.some((n) => n > 0) && (newest === undefined || bucket > newest)) newest = bucket;
  }
  if (newest === undefined) newestWithRows.delete(base);
  else newestWithRows.set(base, newest);
}

/** The buckets a newest-first first page most likely starts with, newest first. */
export function guessNewestBuckets(base: string, spread: Required<Partitioning>, now = Date.now()): string[] {
  const current = bucketOf(now, spread.bucket);
  const hinted = newestWithRows.get(base);
  return hinted === undefined || hinted === current ? [current] : [current, hinted].sort().reverse();
}

/**
 * The page from the guessed read when the counters' bucket list (`buckets`, read order) starts
 * with the guessed ones; the rest of the page, if any, from `readRest` over the buckets after
 * them. Undefined when the guess was wrong: read as if there had been none.
 */
export async function keepGuessedRead(
  guessed: { buckets: string[]; read: SpreadRead },
  buckets: string[],
  matches: number,
  shards: number,
  readRest: (buckets: string[], matches: number) => Promise<SpreadRead>,
): Promise<SpreadRead | undefined> {
  const { buckets: guess, read } = guessed;
  if (guess.some((b, i) => buckets[i] !== b)) return undefined;
  const after = buckets.slice(guess.length);
  if (read.rows.length >= matches) {
    // The page ended exactly at the guessed buckets' end: the next page starts at the next bucket.
    const next: SpreadPosition | undefined =
      read.next ?? (after.length ? { bucket: after[0], starts: Array(shards).fill(null) } : undefined);
    return { ...read, more: Boolean(next), next };
  }
  if (!after.length) return read;
  const rest = await readRest(after, matches - read.rows.length);
  return {
    rows: [...read.rows, ...rest.rows],
    rcu: read.rcu + rest.rcu,
    scanned: read.scanned + rest.scanned,
    more: rest.more,
    next: rest.next,
  };
}

/**
 * Reads `buckets` (read order) from their start for `matches` rows. The current bucket is always
 * read, in case rows landed before their counter moved; when it leads the list and its counters
 * hold no rows, it is read alongside the buckets after it instead of before them, so a quiet
 * type's page (or a direct jump) waits for one read, not two in turn.
 */
export async function readFromNewest(
  buckets: string[],
  currentEmpty: boolean,
  matches: number,
  shards: number,
  read: (buckets: string[], matches: number) => Promise<SpreadRead>,
): Promise<SpreadRead> {
  if (!currentEmpty || buckets.length < 2) return read(buckets, matches);
  const [first, rest] = await Promise.all([read(buckets.slice(0, 1), matches), read(buckets.slice(1), matches)]);
  if (!first.rows.length) return { ...rest, rcu: rest.rcu + first.rcu, scanned: rest.scanned + first.scanned };
  // Rows arrived uncounted: they lead the page, and the rest is read again to the length left.
  const joined = (await keepGuessedRead(
    { buckets: buckets.slice(0, 1), read: first },
    buckets,
    matches,
    shards,
    read,
  ))!;
  return { ...joined, rcu: joined.rcu + rest.rcu };
}
