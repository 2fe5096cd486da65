import { reapStuck } from './engine.js';
import { SUBTASK_TIMEOUT_MS } from './runSubtask.js';

// A subtask gets its own timeout plus time to store its video before it counts as lost.
export const RUNNING_LIMIT_MS = SUBTASK_TIMEOUT_MS + 60_000;

/** Scheduled: fails subtasks whose checker died. Pending work is left to the queue. */
export const handler = async () =>
  reapStuck({ runningLimitMs: RUNNING_LIMIT_MS, pendingLimitMs: Number.POSITIVE_INFINITY });
