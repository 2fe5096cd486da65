import type { Context, ScheduledEvent } from 'aws-lambda';
import { scheduledEvent } from './events.js';
import type { LambdaHandler } from './loadHandler.js';

export interface ScheduleOptions {
  name: string;
  everySeconds: number;
  handler: LambdaHandler<ScheduledEvent, unknown>;
  context: () => Context;
  region: string;
  onError?: (message: string, error: unknown) => void;
}

export interface Schedule {
  /** Stops the timer and waits up to `timeoutMs` for a running invocation; false if it was still running. */
  stop(timeoutMs?: number): Promise<boolean>;
}

/**
 * The local stand-in for an EventBridge `rate(...)` rule: the first run one period after
 * start, like a new rule. A tick that finds the previous run still going is skipped, so a
 * slow handler never runs twice at once.
 */
export function startSchedule(opts: ScheduleOptions): Schedule {
  const onError = opts.onError ?? ((message, error) => console.error(`[${opts.name}] ${message}`, error));
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = (async () => {
      try {
        await opts.handler(scheduledEvent(`patrol-${opts.name}`, opts.region), opts.context());
      } catch (error) {
        onError('scheduled invocation failed', error);
      }
    })().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, opts.everySeconds * 1000);
  return {
    async stop(timeoutMs = 30_000) {
      clearInterval(timer);
      if (!running) return true;
      let t: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        running.then(() => true),
        new Promise<boolean>((r) => {
          t = setTimeout(() => r(false), timeoutMs);
        }),
      ]);
      clearTimeout(t);
      return finished;
    },
  };
}
