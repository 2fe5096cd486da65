// How a webhook delivery is retried: on 5xx, 429 and network errors (no answer, timeout), never on
// another 4xx. Attempt n (from 1) that fails is followed by attempt n+1 after
// base * 2^(n-1) seconds with full jitter (a random share of it, at least half), capped at SQS's
// 15-minute DelaySeconds. With the defaults: 6 attempts over at most ~15 minutes (30, 60, 120,
// 240, 480 s before attempts 2..6). BANK_WEBHOOK_RETRY_BASE_S=0 retries at once (tests).

export const WEBHOOK_TIMEOUT_MS = 10_000;
const SQS_MAX_DELAY_S = 900;

export function maxAttempts(): number {
  return Math.max(1, Number(process.env.BANK_WEBHOOK_MAX_ATTEMPTS ?? 6));
}

function baseDelaySeconds(): number {
  return Math.max(0, Number(process.env.BANK_WEBHOOK_RETRY_BASE_S ?? 30));
}

/** Seconds to wait before attempt `next` (2, 3, ...). */
export function retryDelaySeconds(next: number, random: () => number = Math.random): number {
  const ceiling = Math.min(SQS_MAX_DELAY_S, baseDelaySeconds() * 2 ** Math.max(0, next - 2));
  return Math.min(SQS_MAX_DELAY_S, Math.round(ceiling / 2 + random() * (ceiling / 2)));
}

/**
 * The longest a webhook channel stays Pending between two of its writes while its attempts are
 * under way: the longest wait before a retry, plus an attempt that times out, plus a minute for
 * the queue. A Pending channel untouched for longer has no attempt coming (its message was lost).
 */
export function attemptGapMs(): number {
  const longestDelayS = retryDelaySeconds(maxAttempts(), () => 1);
  return longestDelayS * 1000 + WEBHOOK_TIMEOUT_MS + 60_000;
}

/** Whether an HTTP status (or null: no answer) is worth another attempt. */
export function isRetryable(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}

/** Auto-pause: this many consecutive failed attempts, spread over at least `pauseAfterMs`. */
export function pauseRule(): { failures: number; overMs: number } {
  return {
    failures: Number(process.env.BANK_WEBHOOK_PAUSE_FAILURES ?? 20),
    overMs: Number(process.env.BANK_WEBHOOK_PAUSE_MIN_MS ?? 3_600_000),
  };
}

/** Whether the account's webhook is to be paused after the failed attempt that left it at `state`. */
export function shouldPause(
  state: { consecutive_failures: number; failing_since: number | null },
  now: number,
  rule = pauseRule(),
): boolean {
  return (
    state.consecutive_failures >= rule.failures &&
    state.failing_since !== null &&
    now - state.failing_since >= rule.overMs
  );
}
