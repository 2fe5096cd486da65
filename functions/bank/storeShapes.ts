// What the bank's stores share: the input shape of a new row, and the counts one piece of work
// moves once at its end.
import type { CounterBatch } from '../lib/db/counters.js';

/** A row to create: the repository stamps its id and times. */
export type New<T> = Omit<T, 'id' | 'created_at' | 'updated_at'> & { created_at?: number };

/** Counts of rows written over one piece of work, moved once at its end (flushCounts). */
export type CountBatch = CounterBatch;
