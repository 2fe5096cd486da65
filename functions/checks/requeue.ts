import { type StartupEvent, startBegan } from '../lib/startupEvent.js';
import { reapStuck } from './engine.js';
import { RUNNING_LIMIT_MS } from './reaper.js';

/**
 * At start (local runner): the local queue keeps nothing across a restart, so every pending
 * subtask of an open operation created before this start began is enqueued again; duplicates are
 * dropped by the claim. One created since (the demo check) has its message.
 */
export const handler = async (event?: StartupEvent) =>
  reapStuck({ runningLimitMs: RUNNING_LIMIT_MS, pendingLimitMs: 0, createdBefore: startBegan(event) });
