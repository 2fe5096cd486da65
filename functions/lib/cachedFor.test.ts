import { describe, expect, it } from 'vitest';
import { cachedFor } from './cachedFor.js';

describe('cachedFor', () => {
  it('answers a save made in this process at once, even when a read was under way as it was saved', async () => {
    let stored = 'before';
    let release: (() => void) | undefined;
    let reads = 0;
    const cache = cachedFor(
      async () => {
        reads++;
        const seen = stored;
        // The first read is slow: the save lands while it is in flight.
        if (reads === 1) await new Promise<void>((r) => (release = r));
        return seen;
      },
      { ttlMs: 60_000 },
    );
    const slow = cache.get();
    await Promise.resolve();
    stored = 'after';
    cache.invalidate();
    expect(await cache.get()).toBe('after');
    release?.();
    expect(await slow).toBe('before');
    // The slow read's older answer was not kept.
    expect(await cache.get()).toBe('after');
    expect(reads).toBe(2);
  });
});
