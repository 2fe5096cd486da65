import { LAMBDAS } from '../registry.js';
import { type SlotLease, handOverSlot, releaseSlot, takeSlot } from '../lib/concurrencySlots.js';
import { config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import type { CheckMessage } from './queue.js';

// The super config's checker concurrency, applied within seconds. The queue's own concurrency
// (registry, cdk.json, CHECKER_CONCURRENCY locally) is a deploy-time ceiling; under it, each
// check takes one of `checker.concurrency` slots before it opens a browser. A message that finds
// every slot held (after waiting for one freed in its own process, where there is one to wait for)
// goes back on the queue with a delay instead of failing, so it never counts towards the
// dead-letter queue's receive limit.

const CHECKER_TIMEOUT_SECONDS = LAMBDAS.find((l) => l.name === 'checker')?.timeoutSeconds ?? 120;
/** A checker that dies holding a slot frees it once its invocation can no longer be running. */
export const SLOT_LEASE_MS = (CHECKER_TIMEOUT_SECONDS + 30) * 1000;
/** Seconds before a check that found no free slot is tried again; jittered so waiters spread out. */
export const SLOT_RETRY_SECONDS = { min: 5, max: 20 };

const retryDelay = () =>
  SLOT_RETRY_SECONDS.min + Math.floor(Math.random() * (SLOT_RETRY_SECONDS.max - SLOT_RETRY_SECONDS.min + 1));

/**
 * The longest a check waits in its process for a slot a check there frees, before it goes back on
 * the queue. A slot frees every ~1 s at 4 checks of ~4 s; a wait this long means the checks here
 * are slow ones, and the queue's delay serves better.
 */
export const SLOT_WAIT_MS = 20_000;

/** A check of this process waiting for a slot a check here frees. */
interface Waiter {
  holder: string;
  /** The limit it took under: a slot at or above it is not handed to it. */
  limit: number;
  /** Answers the slot handed over, or nothing (try again). */
  settle(lease: SlotLease | undefined): void;
}

/**
 * The checker slots held by checks of this process (by number), and the checks here waiting for
 * one. Where invocations share a process (the local runner's spare ones, registry `spareLocally`),
 * a check that finds every slot held waits for one a check here frees, instead of going back on the
 * queue: the slot is handed to it (handOverSlot, one write) and it starts its browser while the
 * other stores its evidence. Lambda's invocations never share a process, so there nothing here
 * holds a slot and a check goes back on the queue at once.
 */
const here = { held: new Set<number>(), releases: 0, waiters: [] as Waiter[] };

/** Waits for a slot a check here hands over; nothing after `ms`, or when one was freed instead. */
function slotFromHere(holder: string, limit: number, ms: number): Promise<SlotLease | undefined> {
  return new Promise((resolve) => {
    const waiter: Waiter = {
      holder,
      limit,
      settle: (lease) => {
        clearTimeout(timer);
        resolve(lease);
      },
    };
    const timer = setTimeout(() => {
      // One already being handed a slot waits for it: settling now would leave the slot held.
      const at = here.waiters.indexOf(waiter);
      if (at < 0) return;
      here.waiters.splice(at, 1);
      resolve(undefined);
    }, ms);
    here.waiters.push(waiter);
  });
}

/**
 * Hand-over writes still under way, by the lease they hand: whatever is done next with that lease
 * (its own hand-over or release) waits for the write, so the two never cross.
 */
const naming = new WeakMap<SlotLease, Promise<void>>();

/**
 * Gives up a slot whose check is done with its browser: to the first check waiting here, or back to
 * the table (then a waiter tries again, as a slot it could take is free).
 *
 * The slot stays this process's throughout a hand-over, so the waiter starts at once and the write
 * that names it the holder goes beside its start (the write took ~23 ms of a busy slot at every
 * change of check, 2026-11-29). Should the write fail, the waiter keeps the slot under the name the
 * table still holds, and gives it back under that name.
 */
async function passOn(lease: SlotLease): Promise<void> {
  await naming.get(lease);
  const waiter = here.waiters.shift();
  if (waiter && lease.slot < waiter.limit) {
    const handed: SlotLease = { ...lease, holder: waiter.holder };
    const written = handOverSlot(lease, waiter.holder, SLOT_LEASE_MS).then(
      (named) => {
        // The lease ran out under the check that passed it on (it outran SLOT_LEASE_MS) and another
        // holder took the slot: the waiter's check runs over the limit this once.
        if (!named) logger.warn('a checker slot was handed over after its lease ran out', { slot: lease.slot });
      },
      (error: unknown) => {
        logger.warn('could not write the hand-over of a checker slot; its new check keeps the old name', {
          error: error as Error,
        });
        handed.holder = lease.holder;
      },
    );
    naming.set(handed, written);
    waiter.settle(handed);
    await written;
    return;
  }
  try {
    await releaseSlot(lease);
  } finally {
    here.held.delete(lease.slot);
    here.releases++;
    (waiter ?? here.waiters.shift())?.settle(undefined);
  }
}

/** The operators' limit, under the deployment's ceiling where spare invocations could pass it. */
async function slotLimit(): Promise<number> {
  const { checker } = await getSystemConfig();
  return Math.min(checker.concurrency, config.checkerSlotsCeiling ?? Number.POSITIVE_INFINITY);
}

/**
 * Takes a checker slot, or waits for one a check of this process gives up while one holds a slot
 * here (for at most SLOT_WAIT_MS).
 */
async function takeCheckerSlot(runId: string): Promise<{ lease?: SlotLease; limit: number }> {
  const giveUpAt = Date.now() + SLOT_WAIT_MS;
  for (;;) {
    const limit = await slotLimit();
    const releasesBefore = here.releases;
    // Every slot under the limit held here: none is free anywhere, and each try would cost a write.
    const heldBelow = [...here.held].filter((slot) => slot < limit).length;
    const lease = heldBelow < limit ? await takeSlot('checker', limit, runId, SLOT_LEASE_MS) : undefined;
    if (lease) {
      here.held.add(lease.slot);
      return { lease, limit };
    }
    if (here.held.size === 0 || Date.now() >= giveUpAt) return { limit };
    // A slot given back while the take was under way is tried at once, not waited for.
    if (here.releases !== releasesBefore) continue;
    const handed = await slotFromHere(runId, limit, giveUpAt - Date.now());
    if (handed) return { lease: handed, limit };
  }
}

/**
 * Runs `check` in a checker slot, or puts the message back on the queue for later. The slot stands
 * for a running browser: `check` may free it once its browser work is over (`freeSlot`), so the
 * release is written while it stores its evidence and ends the subtask; it is freed at the end
 * otherwise, and this answers once it is.
 */
export async function inCheckerSlot(
  message: CheckMessage,
  runId: string,
  check: (freeSlot: () => void) => Promise<void>,
): Promise<void> {
  const { lease, limit } = await takeCheckerSlot(runId);
  if (!lease) {
    const delaySeconds = retryDelay();
    await sendToQueue('check', [message], { delaySeconds });
    logger.info('every checker slot is held; the check waits', {
      subtask_id: message.subtask_id,
      concurrency: limit,
      delaySeconds,
    });
    return;
  }
  let released: Promise<void> | undefined;
  const freeSlot = () => {
    if (released) return;
    released = passOn(lease);
    // Awaited below; a failure then is the handler's, not an unhandled rejection meanwhile.
    released.catch(() => {});
  };
  try {
    await check(freeSlot);
  } finally {
    freeSlot();
    await released;
  }
}
