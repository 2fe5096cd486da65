/**
 * Time as the dispatcher and the poller see it. Injected so tests run a minute of polls at any
 * hour in milliseconds of real time; production uses the system clock.
 */
export interface Clock {
  now(): number;
  /** Waits `ms` (a test clock may move itself instead of waiting). */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
