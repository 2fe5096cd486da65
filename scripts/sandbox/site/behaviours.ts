// Failure switches of the sandbox site. A check must meet every way a real agent site lets it down,
// on demand: by the account it signs in with (the username prefix) or by a switch set through
// `POST /__sandbox/behaviour` (per user / mode / process, optionally for a number of calls),
// or per request with the `x-sandbox-failure` header (for JSON-level tests).
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

export interface BehaviourRule {
  failure: Failure;
  /** Limit the rule to one account, mode (1 D4, 3 TT) or process (1..8); absent = any. */
  user?: string;
  mode?: 1 | 3;
  process?: number;
  /** Delay of a 'slow' answer; default: the site's slowMs. */
  delayMs?: number;
  /** Apply to this many matching calls, then drop the rule; absent = until reset. */
  times?: number;
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
  for (const k of ['delayMs', 'times'] as const)
    if (b[k] !== undefined && !(Number.isInteger(b[k]) && (b[k] as number) >= 0))
      return `${k} must be a non-negative integer`;
  return {
    failure: b.failure as Failure,
    user: b.user as string | undefined,
    mode: mode as 1 | 3 | undefined,
    process: b.process as number | undefined,
    delayMs: b.delayMs as number | undefined,
    times: b.times as number | undefined,
  };
}

export class BehaviourBook {
  private rules: BehaviourRule[] = [];

  add(rule: BehaviourRule): void {
    this.rules.unshift(rule);
  }

  list(): BehaviourRule[] {
    return [...this.rules];
  }

  reset(): void {
    this.rules = [];
  }

  /** The switch for one call, consuming one use of a counted rule. */
  take(call: { user?: string; mode?: 1 | 3; process: number }): BehaviourRule | undefined {
    const i = this.rules.findIndex(
      (r) =>
        (r.user === undefined || r.user === call.user) &&
        (r.mode === undefined || r.mode === call.mode) &&
        (r.process === undefined || r.process === call.process),
    );
    if (i < 0) return undefined;
    const rule = this.rules[i];
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.rules.splice(i, 1);
    }
    return rule;
  }
}
