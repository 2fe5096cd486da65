import { LAMBDAS } from '../registry.js';
import { releaseSlot, takeSlot } from '../lib/concurrencySlots.js';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import type { CheckMessage } from './queue.js';

// The super config's checker concurrency, applied within seconds. The queue's own concurrency
// (registry, cdk.json, CHECKER_CONCURRENCY locally) is a deploy-time ceiling; under it, each
// check takes one of `checker.concurrency` slots before it opens a browser. A message that finds
// every slot held goes back on the queue with a delay instead of failing, so it never counts
// towards the dead-letter queue's receive limit.

const CHECKER_TIMEOUT_SECONDS = LAMBDAS.find((l) => l.name === 'checker')?.timeoutSeconds ?? 120;
/** A checker that dies holding a slot frees it once its invocation can no longer be running. */
export const SLOT_LEASE_MS = (CHECKER_TIMEOUT_SECONDS + 30) * 1000;
/** Seconds before a check that found no free slot is tried again; jittered so waiters spread out. */
export const SLOT_RETRY_SECONDS = { min: 5, max: 20 };

const retryDelay = () =>
  SLOT_RETRY_SECONDS.min + Math.floor(Math.random() * (SLOT_RETRY_SECONDS.max - SLOT_RETRY_SECONDS.min + 1));

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
  const { checker } = await getSystemConfig();
  const lease = await takeSlot('checker', checker.concurrency, runId, SLOT_LEASE_MS);
  if (!lease) {
    const delaySeconds = retryDelay();
    await sendToQueue('check', [message], { delaySeconds });
    logger.info('every checker slot is held; the check waits', {
      subtask_id: message.subtask_id,
      concurrency: checker.concurrency,
      delaySeconds,
    });
    return;
  }
  let released: Promise<void> | undefined;
  const freeSlot = () => {
    if (released) return;
    released = releaseSlot(lease);
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
