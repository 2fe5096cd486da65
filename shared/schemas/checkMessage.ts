import { z } from 'zod';
import { Process, TestMode } from '../enums.js';
import type { ProcessValue, TestModeValue } from './checkResults.js';

// The check queue's message, one definition for the sender (functions/checks/queue.ts) and the
// consumer (the checker Lambda), which validates every message before it acts on it: a queue
// is an input like any other, and a bad message must end in the dead-letter queue with a clear
// log line, not as a crash halfway through a check.

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ProcessField = z.custom<ProcessValue>((v) => Process.has(v), 'not a process');
const ModeField = z.custom<TestModeValue>((v) => TestMode.has(v), 'not a test mode');

/**
 * The subtask's fields that never change, copied from its row by the sender: the checker claims
 * with them (no read first) and reads the task, site and account while the claim is written. A
 * message sent by an older version has none; the checker then reads the subtask first.
 */
export const CheckMessageSubtask = z.object({ task_id: Id, site_id: Id, process: ProcessField, mode: ModeField });
export type CheckMessageSubtask = z.infer<typeof CheckMessageSubtask>;

/**
 * The task as its login's success left it, sent with the rest of its subtasks (not with the first
 * wave, a requeue or a message of an older version): it has started, and its checks sign in as
 * this account with this stored session. The checker then neither reads the task nor asks whether
 * its claim starts it. With the site (its name and address as the login's end read them), it reads
 * no site either: the rest of a task checks the site its login signed in to, whose session it holds.
 */
export const CheckMessageTask = z.object({
  account_id: Id.nullable(),
  session_id: Id.nullable(),
  site: z.object({ name: z.string().min(1), url: z.string().min(1) }).optional(),
});
export type CheckMessageTask = z.infer<typeof CheckMessageTask>;

export const CheckMessage = z.object({
  subtask_id: Id,
  operation_id: Id,
  subtask: CheckMessageSubtask.optional(),
  task: CheckMessageTask.optional(),
});
export type CheckMessage = z.infer<typeof CheckMessage>;
