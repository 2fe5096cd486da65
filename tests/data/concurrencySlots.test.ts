import { describe, expect, it } from 'vitest';
import { inCheckerSlot } from '../../functions/checks/checkerSlots.js';
import { releaseSlot, takeSlot } from '../../functions/lib/concurrencySlots.js';
import { getSystemConfig } from '../../functions/systemConfig/getSystemConfig.js';
import { until } from '../helpers/until.js';
import { setupDynamo } from './engine.js';

setupDynamo();

const LEASE = 60_000;
const now = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('concurrency slots', () => {
  it('gives exactly `limit` of a burst of takers a slot, each a different one', async () => {
    const leases = await Promise.all(Array.from({ length: 12 }, (_, i) => takeSlot('burst', 3, `h${i}`, LEASE, now)));
    const held = leases.filter((l) => l !== undefined);
    expect(held).toHaveLength(3);
    expect(new Set(held.map((l) => l.slot))).toEqual(new Set([0, 1, 2]));
  });

  it('frees a slot when its holder gives it back', async () => {
    const a = await takeSlot('release', 1, 'a', LEASE, now);
    expect(a).toBeDefined();
    expect(await takeSlot('release', 1, 'b', LEASE, now)).toBeUndefined();
    await releaseSlot(a!);
    expect(await takeSlot('release', 1, 'b', LEASE, now)).toMatchObject({ slot: 0, holder: 'b' });
  });

  it("lets a slot whose lease ran out be taken, and the old holder's late release leaves it taken", async () => {
    const dead = await takeSlot('lease', 1, 'dead', LEASE, now);
    expect(await takeSlot('lease', 1, 'early', LEASE, now + LEASE - 1)).toBeUndefined();
    const next = await takeSlot('lease', 1, 'next', LEASE, now + LEASE + 1);
    expect(next).toMatchObject({ slot: 0, holder: 'next' });
    await releaseSlot(dead!);
    expect(await takeSlot('lease', 1, 'third', LEASE, now + LEASE + 2)).toBeUndefined();
  });

  it('follows a changed limit on the next take', async () => {
    const first = await Promise.all(['a', 'b'].map((h) => takeSlot('limit', 2, h, LEASE, now)));
    expect(first.every(Boolean)).toBe(true);
    expect(await takeSlot('limit', 2, 'c', LEASE, now)).toBeUndefined();
    // Raised: the new slots are free at once.
    expect(await takeSlot('limit', 3, 'c', LEASE, now)).toMatchObject({ slot: 2 });
    // Lowered: nobody gets in until the holders drain below the new limit.
    await releaseSlot(first.find((l) => l!.slot === 1)!);
    expect(await takeSlot('limit', 1, 'd', LEASE, now)).toBeUndefined();
    await releaseSlot(first.find((l) => l!.slot === 0)!);
    expect(await takeSlot('limit', 1, 'd', LEASE, now)).toMatchObject({ slot: 0, holder: 'd' });
  });
});

describe('the checker slot', () => {
  /** How many of `limit` checker slots another taker gets now (each taken is given back). */
  async function freeCheckerSlots(limit: number): Promise<number> {
    const leases = (
      await Promise.all(Array.from({ length: limit }, (_, i) => takeSlot('checker', limit, `other-${i}`, LEASE)))
    ).filter((l) => l !== undefined);
    await Promise.all(leases.map((l) => releaseSlot(l)));
    return leases.length;
  }

  it('is held while the browser runs and freed as soon as the check says its browser is done', async () => {
    const { checker } = await getSystemConfig();
    const seen: number[] = [];
    await inCheckerSlot({ operation_id: 1, subtask_id: 1 }, 'run-1', async (freeSlot) => {
      seen.push(await freeCheckerSlots(checker.concurrency));
      freeSlot();
      // Storing and the end come after: the slot is another check's meanwhile.
      await until(
        'the slot freed',
        () => freeCheckerSlots(checker.concurrency),
        (free) => free === checker.concurrency,
        { ms: 5_000, everyMs: 20 },
      );
      seen.push(checker.concurrency);
    });
    expect(seen).toEqual([checker.concurrency - 1, checker.concurrency]);
    expect(await freeCheckerSlots(checker.concurrency)).toBe(checker.concurrency);
  });

  it('is freed when the check ends without saying so, or fails', async () => {
    const { checker } = await getSystemConfig();
    await inCheckerSlot({ operation_id: 1, subtask_id: 2 }, 'run-2', async () => {});
    expect(await freeCheckerSlots(checker.concurrency)).toBe(checker.concurrency);
    await expect(
      inCheckerSlot({ operation_id: 1, subtask_id: 3 }, 'run-3', async () => {
        throw new Error('browser crashed');
      }),
    ).rejects.toThrow('browser crashed');
    expect(await freeCheckerSlots(checker.concurrency)).toBe(checker.concurrency);
  });
});
