import { describe, expect, it } from 'vitest';
import type { StoredIncident } from '../incidents/store.js';
import { statusOrder } from './status.js';

const row = (id: number, over: Partial<StoredIncident> = {}) =>
  ({ id, status: 1, opened_at: id * 1000, cause: null, parent_id: null, ...over }) as StoredIncident;

describe('what /status lists', () => {
  it('parents first, then the rest newest first; children of an open parent and resolved ones left out', () => {
    const listed = statusOrder([
      row(1),
      row(2, { status: 2 }),
      row(3, { cause: 'same_check' }),
      row(4, { parent_id: 3 }),
      row(5, { status: 4 }),
      // A child whose parent is resolved (not in the list) stands on its own.
      row(6, { parent_id: 99 }),
      row(7, { cause: 'checker' }),
    ]);
    expect(listed.map((i) => i.id)).toEqual([7, 3, 6, 2, 1]);
  });
});
