import { z } from 'zod';

// The check queue's message, one definition for the sender (functions/checks/queue.ts) and the
// consumer (the checker Lambda), which validates every message before it acts on it: a queue
// is an input like any other, and a bad message must end in the dead-letter queue with a clear
// log line, not as a crash halfway through a check.

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const CheckMessage = z.object({ subtask_id: Id, operation_id: Id });
export type CheckMessage = z.infer<typeof CheckMessage>;
