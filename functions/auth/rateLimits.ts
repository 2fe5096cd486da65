import { TooManyRequestsError } from '../lib/errors.js';
import { hitRateLimit, type RateLimitRule } from '../lib/rateLimit.js';

// Limits of the account calls that have no failure counter of their own. Captchas cost a
// table write and CPU to draw, and each one buys a login guess; /pwd checks a password hash,
// so a stolen token would otherwise guess the current password at full speed.
export const AUTH_LIMITS = {
  captchaPerClient: { name: 'captcha-ip', limit: 30, windowSeconds: 600 },
  pwdPerUser: { name: 'pwd-user', limit: 5, windowSeconds: 900 },
  pwdPerClient: { name: 'pwd-ip', limit: 20, windowSeconds: 900 },
  // Each start of a TOTP enrolment encrypts and stores a new secret (docs/sign-in.md).
  totpStartPerUser: { name: 'totp-start-user', limit: 20, windowSeconds: 600 },
} as const satisfies Record<string, RateLimitRule>;

export class RateLimitedError extends TooManyRequestsError {
  override name = 'RateLimitedError';
  constructor(retryAfterSeconds: number) {
    super(`Too many requests, try again in ${retryAfterSeconds} seconds`, retryAfterSeconds);
  }
}

/** Counts the call against every rule (each with its own key) and refuses it if any is over. */
export async function enforceRateLimits(hits: [RateLimitRule, string][], now = Date.now()): Promise<void> {
  const outcomes = await Promise.all(hits.map(([rule, key]) => hitRateLimit(rule, key, now)));
  const over = outcomes.filter((o) => !o.allowed);
  if (over.length) throw new RateLimitedError(Math.max(...over.map((o) => o.retryAfterSeconds)));
}
