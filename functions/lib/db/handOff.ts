// Follow-ups handed to a consumer of their own: a writer whose time is dear (the checker, whose
// slot holds a Chromium) records its transition's follow-ups on the row as always (outbox.ts), then
// only says which row on the `followUp` queue instead of applying them inline. The consumer
// (functions/data/followUpApply.ts) applies every entry pending on that row, oldest first.
//
// The message is a hint, the row is the truth: a message lost or never sent leaves the entry to the
// sweeper (≤ 1 min, and at every local start), a message for a row already applied finds nothing
// to do, and a step applied twice (the consumer and the sweeper racing) changes nothing the second
// time, as every follow-up step is idempotent.

import type { FollowUpMessage } from '../../../shared/schemas/followUpMessage.js';
import { logger } from '../logger.js';
import { sendToQueue } from '../queue/sendToQueue.js';
import { applyPendingOf } from './outbox.js';

/** Sends the row's key to the follow-up consumer. Never throws: an unsent hint is the sweeper's. */
export async function handOff(key: FollowUpMessage): Promise<void> {
  try {
    await sendToQueue('followUp', [{ pk: key.pk, sk: key.sk }]);
  } catch (error) {
    logger.warn('follow-ups not handed off; the sweeper applies them', { row: key.pk, error: error as Error });
  }
}

/**
 * The consumer's part: applies what is pending on the row now. A failed step is left pending (and
 * logged) for the sweeper rather than thrown back to the queue: the row keeps it either way, and
 * the sweeper's minute is as soon as a redelivery would come.
 */
export async function applyHandedOff(key: FollowUpMessage): Promise<void> {
  try {
    await applyPendingOf(key);
  } catch (error) {
    logger.warn('handed-off follow-ups left to the sweeper', { row: key.pk, error: error as Error });
  }
}
