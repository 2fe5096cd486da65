import { reapStuck } from './reapStuck.js';
import { SUBTASK_TIMEOUT_MS } from './runSubtask.js';

// A subtask gets its own timeout plus time to store its video before it counts as lost.
export const RUNNING_LIMIT_MS = SUBTASK_TIMEOUT_MS + 60_000;

// A pending subtask this old lost its message (sent to the dead-letter queue, or never sent):
// it is enqueued again. Long queues may hold live messages that old too; a duplicate is
// harmless, as the claim lets only one delivery run it.
export const PENDING_LIMIT_MS = Number(process.env.CHECK_PENDING_LIMIT_MS ?? 30 * 60_000);

/** Scheduled: fails subtasks whose checker died and re-sends work whose message was lost. */
export const handler = async () => reapStuck({ runningLimitMs: RUNNING_LIMIT_MS, pendingLimitMs: PENDING_LIMIT_MS });
