// The one lease and claim protocol (functions/lib/db/lease.ts) against the real engine: dynalite
// in the data project, DynamoDB Local in the fidelity project. Time is the caller's `now`, so
// expiry is tested at any instant without waiting.
import { describe, expect, it } from 'vitest';
import { leaseKind, LeaseStatus } from '../../functions/lib/db/lease.js';
import { setupDynamo } from './engine.js';

setupDynamo();

const T0 = Date.UTC(2026, 10, 23, 4, 0, 0);
let n = 0;
const fresh = () => `k${++n}`;

interface PollData {
  polls?: number;
  last?: string;
}

const reusable = leaseKind<PollData>('test_lease', { reusable: true });
const claims = leaseKind<PollData>('test_claim', { reusable: false });

describe('a reusable lease', () => {
  it('is taken, refused to a second taker while held, and released with its data written', async () => {
    const id = fresh();
    const first = await reusable.take(id, { holder: 'a', now: T0, ms: 1000 });
    expect(first).toMatchObject({
      taken: true,
      takenOver: false,
      record: { status: 'in_progress', holder: 'a', data: {} },
    });

    const second = await reusable.take(id, { holder: 'b', now: T0 + 500, ms: 1000 });
    expect(second).toMatchObject({ taken: false, record: { status: 'in_progress', holder: 'a', until: T0 + 1000 } });

    expect(await reusable.release(id, 'a', { set: { last: 'ok' }, add: { polls: 1 } })).toBe(true);
    expect(await reusable.read(id, { now: T0 + 600 })).toMatchObject({
      status: 'free',
      data: { polls: 1, last: 'ok' },
    });

    // The next take hands the data back with the lease: no read of its own.
    const again = await reusable.take(id, { holder: 'b', now: T0 + 700, ms: 1000 });
    expect(again).toMatchObject({ taken: true, record: { holder: 'b', data: { polls: 1, last: 'ok' } } });
  });

  it('is taken over once its holder has run out of time, and the old holder can no longer release it', async () => {
    const id = fresh();
    await reusable.take(id, { holder: 'dead', now: T0, ms: 1000 });
    expect((await reusable.read(id, { now: T0 + 999 }))?.status).toBe(LeaseStatus.InProgress);
    expect((await reusable.read(id, { now: T0 + 1000 }))?.status).toBe(LeaseStatus.Expired);

    const taken = await reusable.take(id, { holder: 'next', now: T0 + 1000, ms: 1000 });
    expect(taken).toMatchObject({ taken: true, takenOver: true, record: { holder: 'next' } });
    expect(await reusable.release(id, 'dead', { add: { polls: 1 } })).toBe(false);
    expect(await reusable.release(id, 'next', { add: { polls: 1 } })).toBe(true);
    expect((await reusable.read(id))?.data.polls).toBe(1);
  });

  it('lets exactly one of 20 parallel takers win', async () => {
    const id = fresh();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => reusable.take(id, { holder: `t${i}`, now: T0, ms: 60_000 })),
    );
    const winners = outcomes.filter((o) => o.taken);
    expect(winners).toHaveLength(1);
    const holder = winners[0]?.record?.holder;
    for (const lost of outcomes.filter((o) => !o.taken)) expect(lost.record?.holder).toBe(holder);
  });

  it('lets exactly one of 20 parallel takers win an expired lease over', async () => {
    const id = fresh();
    await reusable.take(id, { holder: 'dead', now: T0, ms: 10 });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => reusable.take(id, { holder: `t${i}`, now: T0 + 20, ms: 60_000 })),
    );
    expect(outcomes.filter((o) => o.taken && o.takenOver)).toHaveLength(1);
  });
});

describe('a claim', () => {
  it('is taken once: completed, it refuses every later taker for good', async () => {
    const id = fresh();
    expect((await claims.take(id, { holder: 'a', now: T0, ms: 1000 })).taken).toBe(true);
    expect(await claims.complete(id, 'a', { change: { set: { last: 'done' } } })).toBe(true);
    const later = await claims.take(id, { holder: 'b', now: T0 + 86_400_000, ms: 1000 });
    expect(later).toMatchObject({ taken: false, record: { status: 'completed', holder: 'a', data: { last: 'done' } } });
  });

  it('completed until an instant, is taken again after it', async () => {
    const id = fresh();
    await claims.take(id, { holder: 'a', now: T0, ms: 1000 });
    await claims.complete(id, 'a', { keepUntil: T0 + 5000 });
    expect((await claims.take(id, { holder: 'b', now: T0 + 4999, ms: 1000 })).taken).toBe(false);
    expect((await claims.read(id, { now: T0 + 5000 }))?.status).toBe(LeaseStatus.Expired);
    expect((await claims.take(id, { holder: 'b', now: T0 + 5000, ms: 1000 })).taken).toBe(true);
  });

  it('abandoned by its holder, may be taken at once; abandoned by another, stays', async () => {
    const id = fresh();
    await claims.take(id, { holder: 'a', now: T0, ms: 60_000 });
    expect(await claims.abandon(id, 'b')).toBe(false);
    expect((await claims.take(id, { holder: 'b', now: T0 + 1, ms: 60_000 })).taken).toBe(false);
    expect(await claims.abandon(id, 'a')).toBe(true);
    expect(await claims.read(id)).toBeUndefined();
    expect((await claims.take(id, { holder: 'b', now: T0 + 2, ms: 60_000 })).taken).toBe(true);
  });

  it('may be taken again by the same holder while in progress only when reentrant', async () => {
    const id = fresh();
    await claims.take(id, { holder: 'n7', now: T0, ms: 60_000 });
    expect((await claims.take(id, { holder: 'n7', now: T0 + 1, ms: 60_000 })).taken).toBe(false);
    expect((await claims.take(id, { holder: 'n7', now: T0 + 1, ms: 60_000, reentrant: true })).taken).toBe(true);
    expect((await claims.take(id, { holder: 'n8', now: T0 + 1, ms: 60_000, reentrant: true })).taken).toBe(false);
  });

  it('lets exactly one of 20 parallel takers win', async () => {
    const id = fresh();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => claims.take(id, { holder: `t${i}`, now: T0, ms: 60_000 })),
    );
    expect(outcomes.filter((o) => o.taken)).toHaveLength(1);
  });
});

describe('grouped records', () => {
  it('are all read back with one query per group, with their status', async () => {
    const grouped = leaseKind<PollData>('test_grouped', { reusable: true, groups: 3 });
    for (let id = 1; id <= 7; id++) {
      await grouped.take(id, { holder: `h${id}`, now: T0, ms: 1000 });
      if (id % 2) await grouped.release(id, `h${id}`, { add: { polls: id } });
    }
    const { records } = await grouped.all({ now: T0 + 10 });
    expect([...records.keys()].sort()).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(records.get('3')).toMatchObject({ status: 'free', data: { polls: 3 } });
    expect(records.get('4')).toMatchObject({ status: 'in_progress', holder: 'h4' });
  });
});
