import { describe, expect, it } from 'vitest';
import { giveBackRateLimit, hitRateLimit } from '../../functions/lib/rateLimit.js';
import { setupDynamo } from './engine.js';

setupDynamo();

const rule = { name: 'test-rule', limit: 5, windowSeconds: 60 };
const start = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('hitRateLimit', () => {
  it('lets exactly `limit` calls through when a burst arrives at once', async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(rule, 'burst', start + 1000)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(rule.limit);
    expect(outcomes.map((o) => o.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('tells a refused caller how long until the window ends', async () => {
    for (let i = 0; i < rule.limit; i++) await hitRateLimit(rule, 'wait', start + 15_000);
    const refused = await hitRateLimit(rule, 'wait', start + 15_000);
    expect(refused).toEqual({ allowed: false, count: rule.limit + 1, retryAfterSeconds: 45 });
  });

  it('counts keys and rules apart and starts again in the next window', async () => {
    for (let i = 0; i < rule.limit + 1; i++) await hitRateLimit(rule, 'a', start);
    expect((await hitRateLimit(rule, 'b', start)).allowed).toBe(true);
    expect((await hitRateLimit({ ...rule, name: 'other-rule' }, 'a', start)).allowed).toBe(true);
    expect(await hitRateLimit(rule, 'a', start + 60_000)).toMatchObject({ allowed: true, count: 1 });
  });
});

describe('giveBackRateLimit', () => {
  it('returns the slot a hit took in its window, never below zero, and leaves another window alone', async () => {
    // Four hits, three given back (a right password each): the next two hits are the 2nd and 3rd.
    for (let i = 0; i < 4; i++) await hitRateLimit(rule, 'back', start);
    for (let i = 0; i < 3; i++) await giveBackRateLimit(rule, 'back', start);
    expect(await hitRateLimit(rule, 'back', start + 1000)).toMatchObject({ allowed: true, count: 2 });
    // More give-backs than hits stop at zero, and a window nobody hit stays unwritten.
    for (let i = 0; i < 5; i++) await giveBackRateLimit(rule, 'back', start);
    expect(await hitRateLimit(rule, 'back', start)).toMatchObject({ count: 1 });
    await giveBackRateLimit(rule, 'back', start + 60_000);
    expect(await hitRateLimit(rule, 'back', start + 60_000)).toMatchObject({ count: 1 });
  });
});
