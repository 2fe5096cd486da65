// How a newest-first page joins reads of several buckets made at once: the page, its order and where
// the next page starts must be those of reading the buckets one after the other.

import { describe, expect, it } from 'vitest';
import { keepGuessedRead, readFromNewest } from './newestBuckets.js';
import type { SpreadRead } from './spreadRead.js';

/** Buckets of rows (ids, newest first); reading takes from the first bucket on, like readSpread with one shard. */
function engine(contents: Record<string, number[]>) {
  const calls: string[][] = [];
  const read = async (buckets: string[], matches: number): Promise<SpreadRead> => {
    calls.push(buckets);
    const rows: { id: number }[] = [];
    for (const [at, bucket] of buckets.entries()) {
      for (const [i, id] of (contents[bucket] ?? []).entries()) {
        if (rows.length === matches) {
          return { rows, rcu: rows.length, scanned: rows.length, more: true, next: { bucket, starts: [{ id: i }] } };
        }
        rows.push({ id });
      }
      if (rows.length === matches && at < buckets.length - 1) {
        return {
          rows,
          rcu: rows.length,
          scanned: rows.length,
          more: true,
          next: { bucket: buckets[at + 1], starts: [null] },
        };
      }
    }
    return { rows, rcu: rows.length, scanned: rows.length, more: false };
  };
  return { read, calls };
}
const ids = (r: SpreadRead | undefined) => r?.rows.map((x) => x.id);

describe('readFromNewest', () => {
  it('reads an empty current bucket beside the older ones and gives their page', async () => {
    const { read, calls } = engine({ today: [], jan: [5, 4, 3, 2, 1] });
    const out = await readFromNewest(['today', 'jan'], true, 3, 1, read);
    expect(ids(out)).toEqual([5, 4, 3]);
    expect(out.next).toEqual({ bucket: 'jan', starts: [{ id: 3 }] });
    expect(calls).toEqual([['today'], ['jan']]);
  });

  it('puts rows that arrived before their counter first, and reads the rest again to the length left', async () => {
    const { read } = engine({ today: [9], jan: [5, 4, 3, 2, 1] });
    const out = await readFromNewest(['today', 'jan'], true, 3, 1, read);
    expect(ids(out)).toEqual([9, 5, 4]);
    expect(out.next).toEqual({ bucket: 'jan', starts: [{ id: 2 }] });
  });

  it('reads in turn when the current bucket has counted rows', async () => {
    const { read, calls } = engine({ today: [9, 8], jan: [5] });
    expect(ids(await readFromNewest(['today', 'jan'], false, 3, 1, read))).toEqual([9, 8, 5]);
    expect(calls).toEqual([['today', 'jan']]);
  });
});

describe('keepGuessedRead', () => {
  it('keeps a guess the counters confirm, and continues into the buckets after it', async () => {
    const { read } = engine({ today: [9], jan: [5, 4, 3] });
    const guessed = await read(['today'], 3);
    expect(ids(await keepGuessedRead({ buckets: ['today'], read: guessed }, ['today', 'jan'], 3, 1, read))).toEqual([
      9, 5, 4,
    ]);
  });

  it('drops a guess when a bucket the guess skipped holds rows', async () => {
    const { read } = engine({ today: [], feb: [7], jan: [5] });
    const guessed = await read(['today', 'jan'], 2);
    expect(
      await keepGuessedRead({ buckets: ['today', 'jan'], read: guessed }, ['today', 'feb', 'jan'], 2, 1, read),
    ).toBe(undefined);
  });

  it('points the next page at the next bucket when the page ends where the guessed buckets end', async () => {
    const { read } = engine({ today: [9, 8], jan: [5] });
    const guessed = await read(['today'], 2);
    const out = await keepGuessedRead({ buckets: ['today'], read: guessed }, ['today', 'jan'], 2, 1, read);
    expect(out).toMatchObject({ more: true, next: { bucket: 'jan', starts: [null] } });
  });
});
