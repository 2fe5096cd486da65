import { reapStuck } from './engine.js';
import { RUNNING_LIMIT_MS } from './reaper.js';

/**
 * At start (local runner): the local queue keeps nothing across a restart, so every pending
 * subtask of an open operation is enqueued again; duplicates are dropped by the claim.
 */
export const handler = async () => reapStuck({ runningLimitMs: RUNNING_LIMIT_MS, pendingLimitMs: 0 });
