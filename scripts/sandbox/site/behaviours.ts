// Failure switches of the sandbox site. A check must meet every way a real agent site lets it down,
// on demand: by the account it signs in with (the username prefix) or by a switch set through
// `POST /__sandbox/behaviour` (per user / mode / process, optionally for a number of calls),
// or per request with the `x-sandbox-failure` header (for JSON-level tests).
import { type CountedRule, countedRuleError, RuleBook } from '../ruleBook';
import type { ModeSlug } from './data';

export const FAILURES = [
  'none',
  'wrong_password',
  'locked',
  'expired',
  'slow',
  'http500',
  'badjson',
  'closed',
] as const;
export type Failure = (typeof FAILURES)[number];

/** The password every sandbox account accepts unless a switch says otherwise. */
export const SANDBOX_PASSWORD = 'sandbox123';

/** Username prefix -> behaviour of the account. Anything else (e.g. agent01) is a normal account. */
export const ACCOUNT_PREFIXES: ReadonlyArray<readonly [string, Failure]> = [
  ['locked', 'locked'],
  ['slow', 'slow'],
  ['err500', 'http500'],
  ['badjson', 'badjson'],
  ['expire', 'expired'],
  ['closed', 'closed'],
];

export function accountFailure(user: string): Failure {
  const lower = user.toLowerCase();
  return ACCOUNT_PREFIXES.find(([prefix]) => lower.startsWith(prefix))?.[1] ?? 'none';
}

/** A switch; its `delayMs` is a 'slow' answer's delay (default: the site's slowMs). */
export interface BehaviourRule extends CountedRule {
  failure: Failure;
  /** Limit the rule to one account, mode (1 D4, 3 TT) or process (1..8); absent = any. */
  user?: string;
  mode?: 1 | 3;
  process?: number;
}

export const MODE_OF_SLUG: Record<ModeSlug, 1 | 3> = { d4: 1, tt: 3 };

export function parseRule(body: unknown): BehaviourRule | string {
  if (!body || typeof body !== 'object') return 'Body must be a JSON object';
  const b = body as Record<string, unknown>;
  if (!FAILURES.includes(b.failure as Failure)) return `failure must be one of ${FAILURES.join(', ')}`;
  const mode = b.mode === 'd4' || b.mode === 'D4' ? 1 : b.mode === 'tt' || b.mode === 'TT' ? 3 : b.mode;
  if (mode !== undefined && mode !== 1 && mode !== 3) return 'mode must be 1 (D4) or 3 (TT)';
  if (
    b.process !== undefined &&
    !(Number.isInteger(b.process) && (b.process as number) >= 1 && (b.process as number) <= 8)
  )
    return 'process must be 1..8';
  if (b.user !== undefined && typeof b.user !== 'string') return 'user must be a string';
  const counted = countedRuleError(b);
  if (counted) return counted;
  return {
    failure: b.failure as Failure,
    user: b.user as string | undefined,
    mode: mode as 1 | 3 | undefined,
    process: b.process as number | undefined,
    delayMs: b.delayMs as number | undefined,
    times: b.times as number | undefined,
  };
}

/** The site sandbox's switches: a rule limited to an account, a mode or a process matches only those. */
export const newBehaviourBook = () =>
  new RuleBook<BehaviourRule, { user?: string; mode?: 1 | 3; process: number }>(
    (r, call) =>
      (r.user === undefined || r.user === call.user) &&
      (r.mode === undefined || r.mode === call.mode) &&
      (r.process === undefined || r.process === call.process),
  );
