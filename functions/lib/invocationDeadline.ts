import { AsyncLocalStorage } from 'node:async_hooks';

// When the running Lambda invocation ends (its timeout), for code deep in a handler that may wait:
// a Telegram flood wait honoured in place must not outlast the invocation, or the whole batch
// times out and comes back, sent parts and all. Queue handlers set it (sqsRecordHandler).

const deadline = new AsyncLocalStorage<number>();

/** Runs `fn` with `endsAt` (epoch ms) as the invocation's end for everything it awaits. */
export function runUntil<T>(endsAt: number, fn: () => Promise<T>): Promise<T> {
  return deadline.run(endsAt, fn);
}

/** Milliseconds the current invocation has left; undefined outside one that set its end. */
export function invocationTimeLeft(now = Date.now()): number | undefined {
  const endsAt = deadline.getStore();
  return endsAt === undefined ? undefined : endsAt - now;
}
