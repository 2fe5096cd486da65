import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SLOT_WAIT_MS, inCheckerSlot } from '../../functions/checks/checkerSlots.js';
import { resetClients } from '../../functions/lib/aws/clients.js';
import { releaseSlot, takeSlot } from '../../functions/lib/concurrencySlots.js';
import { QUEUES } from '../../functions/registry.js';
import { getSystemConfig } from '../../functions/systemConfig/getSystemConfig.js';
import { type SqsEngine, startSqs } from '../../scripts/local/engines/sqs.js';
import { until } from '../helpers/until.js';
import { callsDuring, setupDynamo } from './engine.js';

setupDynamo();

// The check queue, where a check that finds no slot goes back with a delay.
let sqsEngine: SqsEngine;
let sqs: SQSClient;
const checkQueue = () => sqsEngine.queues.find((q) => q.name === 'check')!;
beforeAll(async () => {
  sqsEngine = await startSqs({ queues: QUEUES, region: 'us-east-1' });
  process.env.SQS_ENDPOINT = sqsEngine.endpoint;
  process.env.CHECK_QUEUE_URL = checkQueue().url;
  resetClients();
  sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: sqsEngine.endpoint,
    credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
  });
});
afterAll(async () => {
  sqs?.destroy();
  await sqsEngine?.stop();
});
afterEach(() => {
  delete process.env.CHECKER_SLOTS_CEILING;
});

/** Checks put back on the check queue for later (delayed). */
async function checksPutBack(): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: checkQueue().url,
      AttributeNames: ['ApproximateNumberOfMessagesDelayed'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessagesDelayed ?? 0);
}

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

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

  it('waits, with every slot held by checks of its process, for the one they give up first, and runs while that check still stores', async () => {
    const { checker } = await getSystemConfig();
    const putBack = await checksPutBack();
    const events: string[] = [];
    const browserDone = gate();
    const stored = gate();
    const others = gate();
    // Every slot held here: the first check stores its evidence after freeing its slot.
    let running = 0;
    const holders = Array.from({ length: checker.concurrency }, (_, i) =>
      inCheckerSlot({ operation_id: 2, subtask_id: 10 + i }, `held-${i}`, async (freeSlot) => {
        running++;
        if (i > 0) return others.opened;
        await browserDone.opened;
        freeSlot();
        await stored.opened;
        events.push('first check stored');
      }),
    );
    await until(
      'every check running',
      async () => running,
      (n) => n === checker.concurrency,
      {
        ms: 5_000,
        everyMs: 20,
      },
    );
    expect(await freeCheckerSlots(checker.concurrency)).toBe(0);
    const waiting = inCheckerSlot({ operation_id: 2, subtask_id: 20 }, 'waiting', async () => {
      events.push('waiting check ran');
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(events).toEqual([]);
    // The slot goes straight to the waiting check: one write of the slot, not a release and a take.
    const { calls } = await callsDuring(async () => {
      browserDone.open();
      await waiting;
    });
    // (and the waiting check's own release, once it ran)
    expect(calls.filter((c) => c.pk?.startsWith('slot')).map((c) => c.command)).toEqual([
      'UpdateItemCommand',
      'DeleteItemCommand',
    ]);
    stored.open();
    others.open();
    await Promise.all(holders);
    expect(events).toEqual(['waiting check ran', 'first check stored']);
    expect(await checksPutBack()).toBe(putBack);
    expect(await freeCheckerSlots(checker.concurrency)).toBe(checker.concurrency);
  });

  it('goes back on the queue at once when the slots are held elsewhere (as for a Lambda invocation, which never shares its process)', async () => {
    const { checker } = await getSystemConfig();
    const putBack = await checksPutBack();
    const elsewhere = (
      await Promise.all(
        Array.from({ length: checker.concurrency }, (_, i) =>
          takeSlot('checker', checker.concurrency, `far-${i}`, LEASE),
        ),
      )
    ).filter((l) => l !== undefined);
    expect(elsewhere).toHaveLength(checker.concurrency);
    let ran = false;
    const started = Date.now();
    await inCheckerSlot({ operation_id: 3, subtask_id: 30 }, 'no-slot', async () => {
      ran = true;
    });
    expect(Date.now() - started).toBeLessThan(SLOT_WAIT_MS / 4);
    expect(ran).toBe(false);
    expect(await checksPutBack()).toBe(putBack + 1);
    await Promise.all(elsewhere.map((l) => releaseSlot(l)));
  });

  it("hands a slot on at once, and never gives up a slot whose lease ran out under another holder's feet", async () => {
    process.env.CHECKER_SLOTS_CEILING = '1';
    const holding = gate();
    const handedOn = gate();
    const events: string[] = [];
    let running = false;
    const first = inCheckerSlot({ operation_id: 5, subtask_id: 50 }, 'outran-1', async (freeSlot) => {
      running = true;
      await holding.opened;
      freeSlot();
      await handedOn.opened;
    });
    await until('the first check holding the slot', async () => running, Boolean, { ms: 5_000, everyMs: 20 });
    // Its lease runs out (it outran SLOT_LEASE_MS) and a checker elsewhere takes the slot.
    await releaseSlot({ pool: 'checker', slot: 0, holder: 'outran-1' });
    const far = await takeSlot('checker', 1, 'elsewhere', LEASE);
    expect(far).toMatchObject({ slot: 0, holder: 'elsewhere' });
    const waiting = inCheckerSlot({ operation_id: 5, subtask_id: 51 }, 'outran-2', async () => {
      events.push('waiting check ran');
    });
    await new Promise((r) => setTimeout(r, 200));
    holding.open();
    await waiting;
    handedOn.open();
    await first;
    // The hand-over found the slot another's: the waiting check ran this once (and said so in the
    // log), and neither check's release took the slot from the holder elsewhere.
    expect(events).toEqual(['waiting check ran']);
    expect(await takeSlot('checker', 1, 'after', LEASE)).toBeUndefined();
    await releaseSlot(far!);
  });

  it('keeps under the local ceiling when the operators allow more', async () => {
    const { checker } = await getSystemConfig();
    expect(checker.concurrency).toBeGreaterThan(1);
    process.env.CHECKER_SLOTS_CEILING = '1';
    const release = gate();
    let running = 0;
    let most = 0;
    const check = async () => {
      running++;
      most = Math.max(most, running);
      await release.opened;
      running--;
    };
    const first = inCheckerSlot({ operation_id: 4, subtask_id: 40 }, 'ceiling-1', check);
    await until(
      'the first check running',
      async () => running,
      (n) => n === 1,
      { ms: 5_000, everyMs: 20 },
    );
    const second = inCheckerSlot({ operation_id: 4, subtask_id: 41 }, 'ceiling-2', check);
    await new Promise((r) => setTimeout(r, 300));
    expect(running).toBe(1);
    release.open();
    await Promise.all([first, second]);
    expect(most).toBe(1);
  });
});
