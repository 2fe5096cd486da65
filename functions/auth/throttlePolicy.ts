// How failed logins slow an attacker down (per username and per client IP, each in its own
// fixed 15-minute window that starts at the first failure):
//   fewer than 3 failures  -> password alone
//   3 to 9 failures        -> password and a captcha
//   10 or more failures    -> refused with 429 until the window ends, even with the right password
export const THROTTLE = { windowMs: 15 * 60_000, captchaAfter: 3, lockAfter: 10 } as const;

export interface FailureCounter {
  failures: number;
  /** Epoch ms of the first failure of the window. */
  window_start: number;
}

export type ThrottleVerdict = { kind: 'open' } | { kind: 'captcha' } | { kind: 'locked'; retryAfterSeconds: number };

const active = (c: FailureCounter | undefined, now: number): c is FailureCounter =>
  c !== undefined && now - c.window_start < THROTTLE.windowMs;

export function throttleVerdict(counters: (FailureCounter | undefined)[], now: number): ThrottleVerdict {
  const live = counters.filter((c) => active(c, now));
  const locking = live.filter((c) => c.failures >= THROTTLE.lockAfter);
  if (locking.length > 0) {
    const until = Math.max(...locking.map((c) => c.window_start + THROTTLE.windowMs));
    return { kind: 'locked', retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }
  if (live.some((c) => c.failures >= THROTTLE.captchaAfter)) return { kind: 'captcha' };
  return { kind: 'open' };
}
