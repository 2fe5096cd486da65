import { type StartupEvent, startBegan } from '../lib/startupEvent.js';
import { reapStuck } from './reapStuck.js';
import { RUNNING_LIMIT_MS } from './reaper.js';

/**
 * At start (local runner): the local queue keeps nothing across a restart, so every pending
 * subtask of an open operation created before this start began is enqueued again; duplicates are
 * dropped by the claim. One created since (the demo check) has its message. A subtask still Running
 * from before the start lost its checker with the stack (a stop drains them; a kill does not): it is
 * failed now, not a reaper limit later.
 */
export const handler = async (event?: StartupEvent) =>
  reapStuck({
    runningLimitMs: RUNNING_LIMIT_MS,
    pendingLimitMs: 0,
    createdBefore: startBegan(event),
    claimedBefore: startBegan(event),
  });
