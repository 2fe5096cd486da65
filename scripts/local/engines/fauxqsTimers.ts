// fauxqs's queue timer, woken when something is due instead of every 20 ms.
//
// While a receive long-polls a queue, fauxqs (0.x, `SqsQueue.startPollTimerIfNeeded`) runs a 20 ms
// interval on that queue to move due delayed messages and timed-out in-flight ones back to the
// waiting receive. A new message needs no timer: sending wakes the receive at once. The stack keeps a
// long poll open on every consumer's queue all the time, so those ticks were half of an idle
// stack's CPU: its process took 1.27 CPU s a minute with them and 0.65 without (2026-11-29,
// `npm run bench -- idle`). Here the tick comes when the nearest of those deadlines is due (no
// sooner than 20 ms, as before), and at least every MAX_TICK_MS, so a deadline set between two
// ticks (a new delay or visibility timeout, whole seconds away) is met on time too.

import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The longest wait between two ticks: a deadline is met within this, however it was set. */
export const MAX_TICK_MS = 250;
/** fauxqs's own tick: a deadline due sooner is met at this granularity, as before. */
const MIN_TICK_MS = 20;

interface Delayed {
  delayUntil?: number;
}

/** The parts of fauxqs's `SqsQueue` the timer reads and replaces (dist/sqs/sqsStore.js). */
interface FauxqsQueue {
  pollTimer?: ReturnType<typeof setTimeout>;
  pollWaiters: unknown[];
  inflightMessages: Map<string, { visibilityDeadline: number }>;
  delayedMessages: Delayed[];
  fifoDelayed: Map<string, Delayed[]>;
  processTimers(): void;
  startPollTimerIfNeeded(): void;
  stopPollTimerIfEmpty(): void;
}

/** Milliseconds to the queue's nearest deadline, within [MIN_TICK_MS, MAX_TICK_MS]. */
export function nextTickMs(
  queue: Pick<FauxqsQueue, 'inflightMessages' | 'delayedMessages' | 'fifoDelayed'>,
  now: number,
): number {
  let next = now + MAX_TICK_MS;
  for (const entry of queue.inflightMessages.values()) next = Math.min(next, entry.visibilityDeadline);
  for (const msg of queue.delayedMessages) if (msg.delayUntil) next = Math.min(next, msg.delayUntil);
  for (const group of queue.fifoDelayed.values())
    for (const msg of group) if (msg.delayUntil) next = Math.min(next, msg.delayUntil);
  return Math.max(MIN_TICK_MS, next - now);
}

let installed = false;

/**
 * fauxqs's queue class. It is not among the package's exports, so it is reached by its file: the
 * same module instance fauxqs's own store imports.
 */
export async function fauxqsQueueClass(): Promise<{ prototype: FauxqsQueue } | undefined> {
  const entry = import.meta.resolve('fauxqs');
  const store = pathToFileURL(join(dirname(new URL(entry).pathname), 'sqs', 'sqsStore.js')).href;
  return ((await import(store)) as { SqsQueue?: { prototype: FauxqsQueue } }).SqsQueue;
}

/** Replaces the timer on fauxqs's queue class, once per process, before any queue exists. */
export async function installDueTimers(): Promise<void> {
  if (installed) return;
  const proto = (await fauxqsQueueClass())?.prototype;
  // A fauxqs whose queue no longer looks like this keeps its own timer: slower, never wrong.
  if (!proto || typeof proto.processTimers !== 'function' || typeof proto.startPollTimerIfNeeded !== 'function') return;
  proto.startPollTimerIfNeeded = function (this: FauxqsQueue) {
    if (this.pollTimer) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      this.processTimers();
      // Stopped meanwhile (the last waiter answered): this chain ends, and a new one starts with the next waiter.
      if (this.pollTimer !== timer) return;
      timer = this.pollWaiters.length ? setTimeout(tick, nextTickMs(this, Date.now())) : undefined;
      this.pollTimer = timer;
    };
    timer = setTimeout(tick, nextTickMs(this, Date.now()));
    this.pollTimer = timer;
  };
  // fauxqs clears it with clearInterval, which clears a timeout as well; said here for the reader.
  proto.stopPollTimerIfEmpty = function (this: FauxqsQueue) {
    if (this.pollWaiters.length === 0 && this.pollTimer) {
      clearTimeout(this.pollTimer);
      this.pollTimer = undefined;
    }
  };
  installed = true;
}
