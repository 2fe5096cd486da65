import { z } from 'zod';

/** One poll on the bank queue: which account, and the instant it is due (ms). */
export const PollMessage = z.object({ account_id: z.number().int().positive(), due: z.number().int() });
export type PollMessage = z.infer<typeof PollMessage>;

/** Most DelaySeconds SQS accepts. */
const MAX_DELAY_S = 900;

/**
 * The DelaySeconds that brings a poll due at `due` at most a second early (SQS delays are whole
 * seconds); the poller waits out the rest, so a poll starts on its second, not up to a second late.
 */
export function delayFor(due: number, now: number): number {
  return Math.min(MAX_DELAY_S, Math.max(0, Math.floor((due - now) / 1000)));
}
