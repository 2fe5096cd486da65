import type { PollMessage } from './pollMessage.js';

/** How polls reach the poller: the bank queue (dispatch.ts enqueuePolls), or a test's collector. */
export type PollSender = (polls: PollMessage[], now: number) => Promise<void>;

let sender: PollSender | undefined;

export function pollSender(fallback: PollSender): PollSender {
  return sender ?? fallback;
}

/** Tests collect the polls instead of sending them; undefined restores the queue. */
export function usePollSender(next: PollSender | undefined): void {
  sender = next;
}
