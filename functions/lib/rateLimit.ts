import { held } from './db/conditionFailure.js';
import { when } from './db/expr.js';
import { keyedRecords } from './db/keyedRecords.js';

// A fixed-window rate limiter on the main table. Each (rule, key, window) is one record whose
// counter is bumped by a single atomic `ADD` before the caller does the limited work, so a
// burst of parallel calls reserves its slots in order and can never exceed the limit (a read,
// then a later write, would let every parallel call see the same old count).
// `expires_at` lets DynamoDB TTL (the local sweeper locally) drop old windows.

export interface RateLimitRule {
  /** Names the limit, e.g. 'captcha-ip'; part of the item key. */
  name: string;
  /** Calls allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitOutcome {
  allowed: boolean;
  /** Calls counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends: the Retry-After to send when refused. */
  retryAfterSeconds: number;
}

/** One window of one rule and key (the key layout of the items written before keyed records: `rate#…`, sk 'rate'). */
const windows = keyedRecords<{ count?: number }>('rate', { sk: 'rate' });

function windowOf(rule: RateLimitRule, now: number) {
  const windowMs = rule.windowSeconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

const retryAfter = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/** Counts one call of `key` against `rule` and says whether it is within the limit. */
export async function hitRateLimit(rule: RateLimitRule, key: string, now = Date.now()): Promise<RateLimitOutcome> {
  const { start, end } = windowOf(rule, now);
  const out = await windows.update(
    `${rule.name}#${key}#${start}`,
    { add: { count: 1 }, setIfAbsent: { expires_at: Math.ceil(end / 1000) } },
    { returnNew: true },
  );
  const count = Number(out?.count ?? 1);
  return { allowed: count <= rule.limit, count, retryAfterSeconds: retryAfter(end, now) };
}

/**
 * Whether `key` has used up `rule` in this window, without counting a call (a read): for limits
 * counted only on failure, checked before the work.
 */
export async function rateLimitReached(
  rule: RateLimitRule,
  key: string,
  now = Date.now(),
): Promise<{ reached: boolean; retryAfterSeconds: number }> {
  const { start, end } = windowOf(rule, now);
  const count = Number((await windows.get(`${rule.name}#${key}#${start}`))?.count ?? 0);
  return { reached: count >= rule.limit, retryAfterSeconds: retryAfter(end, now) };
}

/**
 * Gives back the slot `hitRateLimit(rule, key, now)` took (the same `now`, so the same window), for a
 * limit on guesses that a right guess should not spend: the slot was reserved before the check, so
 * parallel guesses still count one by one. Only while the window's record exists and counts it.
 */
export async function giveBackRateLimit(rule: RateLimitRule, key: string, now: number): Promise<void> {
  const { start } = windowOf(rule, now);
  await held(
    windows.update(`${rule.name}#${key}#${start}`, { add: { count: -1 } }, { when: when.is('count', '>', 0) }),
  );
}
