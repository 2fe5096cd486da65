import { held, ifHeld } from '../lib/db/conditionFailure.js';
import { when } from '../lib/db/expr.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';
import { type FailureCounter, THROTTLE } from './throttlePolicy.js';

// Attempt counters live in the main table as single items, `throttle#user#{username}`,
// `throttle#ip#{ip}` and `throttle#factor#{user id}`, changed only by conditional single-item writes, so concurrent Lambdas
// count every attempt without a lock: an attempt reserves its slot (and learns its place) in
// the same write, before its password is checked (throttlePolicy.ts). `expires_at` lets
// DynamoDB TTL drop stale counters; TTL is lazy, so readers still check the window themselves.

export type ThrottleKey = `throttle#user#${string}` | `throttle#ip#${string}` | `throttle#factor#${number}`;

export const userThrottleKey = (username: string): ThrottleKey => `throttle#user#${username.toLowerCase()}`;
export const ipThrottleKey = (ip: string): ThrottleKey => `throttle#ip#${ip}`;
/** Wrong second-factor codes of one user (factors.ts), counted apart from the password's failures. */
export const factorThrottleKey = (userId: number): ThrottleKey => `throttle#factor#${userId}`;

/** The counters, keyed by `user#…` / `ip#…` under `throttle#` (the keys written before lib/db named record keys). */
const counters = keyedRecords<{ failures: number; window_start: number; next_check_at?: number; expires_at?: number }>(
  'throttle',
  {
    sk: 'throttle',
  },
);
const idOf = (pk: ThrottleKey) => pk.slice('throttle#'.length);

/** Reserves one attempt and returns the counter after it: this attempt's place in the window. */
export async function reserveAttempt(pk: ThrottleKey, now = Date.now()): Promise<FailureCounter> {
  const cutoff = now - THROTTLE.windowMs;
  for (let attempt = 0; attempt < 4; attempt++) {
    // The usual case: a window is open, add to it.
    const after = await ifHeld(
      counters.update(
        idOf(pk),
        { add: { failures: 1 } },
        { returnNew: true, when: when.is('window_start', '>', cutoff) },
      ),
    );
    if (after) return { failures: Number(after.failures), window_start: Number(after.window_start) };
    // No open window: start one, unless another request just did (then add to theirs).
    const started = await counters.put(
      idOf(pk),
      { failures: 1, window_start: now, expires_at: Math.ceil((now + THROTTLE.windowMs) / 1000) },
      { when: when.or(when.missing(), when.is('window_start', '<=', cutoff)) },
    );
    if (started) return { failures: 1, window_start: now };
  }
  throw new Error(`Could not count a login attempt for ${pk}`);
}

export async function clearFailures(pk: ThrottleKey): Promise<void> {
  await counters.remove(idOf(pk));
}

/** Gives back an attempt's slot (it was right, or never reached the password); a newer window is left alone. */
export async function releaseAttempt(pk: ThrottleKey, counter: FailureCounter): Promise<void> {
  await held(
    counters.update(
      idOf(pk),
      { add: { failures: -1 } },
      { when: when.and(when.is('window_start', '=', counter.window_start), when.is('failures', '>', 0)) },
    ),
  );
}

/**
 * Claims the next password check of a username under attack: one conditional write, so of
 * parallel attempts exactly one wins; the others learn how long to wait (ms).
 */
export async function claimCheckSlot(pk: ThrottleKey, backoffMs: number, now = Date.now()): Promise<number> {
  const claimed = await held(
    counters.update(
      idOf(pk),
      { set: { next_check_at: now + backoffMs } },
      { when: when.and(when.exists(), when.or(when.absent('next_check_at'), when.is('next_check_at', '<=', now))) },
    ),
  );
  if (claimed) return 0;
  const counter = await counters.get(idOf(pk), { consistent: true });
  return Math.max(1, Number(counter?.next_check_at ?? now) - now);
}
