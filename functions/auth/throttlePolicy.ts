// How failed logins slow an attacker down. Each login attempt first reserves a slot on two
// counters (its username and its client address, each in a fixed 15-minute window that starts
// at the first attempt), with one atomic write, before any password is hashed; the slot is given
// back when the attempt turns out right or never reaches the password check. So the counts are
// "attempts in flight or failed", and N parallel guesses see N different counts.
//
// With the count including this attempt:
//   up to 3                 -> password alone
//   above 3                 -> password and a captcha (each captcha buys one guess)
//   above 10, client address -> refused (429) until the window ends: it is the attacker's address
//   above 10, username      -> still password and captcha, plus a backoff between password checks
//                              that doubles with each failure (up to a minute), so the username's
//                              owner can always sign in, while a guesser gets few checks per window
export const THROTTLE = {
  windowMs: 15 * 60_000,
  captchaAfter: 3,
  lockAfter: 10,
  backoffBaseMs: 2000,
  backoffMaxMs: 60_000,
} as const;

export interface FailureCounter {
  /** Attempts counted in the window (this one included when just reserved). */
  failures: number;
  /** Epoch ms of the first attempt of the window. */
  window_start: number;
}

export type ThrottleVerdict =
  | { kind: 'open' }
  | {
      kind: 'captcha' /** Minimum gap between password checks of the username, when under attack. */;
      backoffMs?: number;
    }
  | { kind: 'locked'; retryAfterSeconds: number };

const active = (c: FailureCounter | undefined, now: number): c is FailureCounter =>
  c !== undefined && now - c.window_start < THROTTLE.windowMs;

/** The verdict for an attempt from the counters it reserved: `[username, client address]`. */
export function throttleVerdict(
  [user, client]: [FailureCounter | undefined, FailureCounter | undefined],
  now: number,
): ThrottleVerdict {
  const liveUser = active(user, now) ? user : undefined;
  const liveClient = active(client, now) ? client : undefined;
  if (liveClient && liveClient.failures > THROTTLE.lockAfter) {
    const until = liveClient.window_start + THROTTLE.windowMs;
    return { kind: 'locked', retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }
  if (liveUser && liveUser.failures > THROTTLE.lockAfter) {
    const doublings = liveUser.failures - THROTTLE.lockAfter - 1;
    const backoffMs = Math.min(THROTTLE.backoffMaxMs, THROTTLE.backoffBaseMs * 2 ** Math.min(doublings, 16));
    return { kind: 'captcha', backoffMs };
  }
  if ([liveUser, liveClient].some((c) => c && c.failures > THROTTLE.captchaAfter)) return { kind: 'captcha' };
  return { kind: 'open' };
}

/** Whether a failure that brought the counters to these values should show the captcha next time. */
export function captchaNext(counters: (FailureCounter | undefined)[], now: number): boolean {
  return counters.some((c) => active(c, now) && c.failures >= THROTTLE.captchaAfter);
}
