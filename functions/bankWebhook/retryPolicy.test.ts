import { afterEach, describe, expect, it } from 'vitest';
import { isRetryable, retryDelaySeconds, shouldPause } from './retryPolicy.js';

describe('webhook retry policy', () => {
  afterEach(() => {
    delete process.env.BANK_WEBHOOK_RETRY_BASE_S;
  });

  it('doubles the delay per attempt, with jitter in its upper half, capped at 15 minutes', () => {
    expect([2, 3, 4, 5, 6].map((n) => retryDelaySeconds(n, () => 1))).toEqual([30, 60, 120, 240, 480]);
    expect([2, 3, 4].map((n) => retryDelaySeconds(n, () => 0))).toEqual([15, 30, 60]);
    expect(retryDelaySeconds(20, () => 1)).toBe(900);
    process.env.BANK_WEBHOOK_RETRY_BASE_S = '0';
    expect(retryDelaySeconds(3, () => 1)).toBe(0);
  });

  it('retries 5xx, 429 and no answer; never another 4xx', () => {
    expect([500, 502, 429, null].map(isRetryable)).toEqual([true, true, true, true]);
    expect([400, 401, 404, 410, 200].map(isRetryable)).toEqual([false, false, false, false, false]);
  });

  it('pauses after 20 consecutive failures spread over at least an hour, not before', () => {
    const hour = 3_600_000;
    const since = 1_000_000;
    expect(shouldPause({ consecutive_failures: 19, failing_since: since }, since + 2 * hour)).toBe(false);
    expect(shouldPause({ consecutive_failures: 40, failing_since: since }, since + hour - 1)).toBe(false);
    expect(shouldPause({ consecutive_failures: 20, failing_since: since }, since + hour)).toBe(true);
    expect(shouldPause({ consecutive_failures: 20, failing_since: null }, since + hour)).toBe(false);
  });
});
