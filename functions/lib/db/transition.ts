// A transition: a row's conditional change together with what it sets in motion (its follow-ups,
// outbox.ts), recorded on the row by the same UpdateItem and applied once in effect: inline, handed to
// the followUp queue's applier (handOff.ts), or off the caller's path (`beside`). The repository's
// update only writes (and moves its kept counts); the follow-ups are the outbox's, here.

import type { TransitionOptions } from './entity.js';
import { handOff } from './handOff.js';
import { applyRecorded, type OutboxWrite, recordFollowUps } from './outbox.js';
import type { DynamoRepository } from './repository.js';

/**
 * Writes `patch` to the row (under `options`' conditions, as update does) with the follow-ups recorded
 * in the same write, then moves its kept counts and applies the follow-ups, in that order, before it
 * answers; the sweeper applies whatever a crash leaves. A ConditionFailedError means nothing was written.
 */
export async function transition<T extends { id: number; created_at: number }>(
  repo: Pick<DynamoRepository<T>, 'updateWith'>,
  id: number,
  patch: Partial<T>,
  options: TransitionOptions = {},
): Promise<T> {
  const { followUps, followUpCounts, beside, handOff: handedOff, keepApplied, clearsApplied, ...write } = options;
  let outbox: OutboxWrite | undefined;
  const written = await repo.updateWith(id, patch, write, (b) => {
    if (followUps?.length) outbox = recordFollowUps(b, followUps, undefined, clearsApplied);
    return outbox ?? { sets: [], adds: [], removes: [] };
  });
  const recorded = outbox;
  const rest = (async () => {
    const moved = written.moveCounters();
    // Handed off, the follow-ups go to their applier while the counters move (none reads them).
    if (recorded && handedOff) {
      await Promise.all([moved, handOff(written.key)]);
      return;
    }
    await moved;
    if (!recorded) return;
    const applied = await applyRecorded(
      written.key,
      recorded,
      written.old,
      followUpCounts ? { counts: followUpCounts } : undefined,
      { keep: keepApplied !== undefined },
    );
    if (applied) keepApplied?.(recorded.name);
  })();
  if (beside) beside(rest);
  else await rest;
  return written.row;
}
