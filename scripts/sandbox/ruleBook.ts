// The failure switches every sandbox keeps (`POST /__sandbox/behaviour` and the like): the newest
// rule that matches a call wins, and a rule set for a number of calls is dropped once they are used.

/** What a switch may add to its failure: a delay for a slow answer, and how many calls it lasts. */
export interface CountedRule {
  delayMs?: number;
  /** Apply to this many matching calls, then drop the rule; absent = until reset. */
  times?: number;
}

/** The `delayMs` and `times` of a switch's body, each a non-negative integer when given; else the error. */
export function countedRuleError(body: Record<string, unknown>): string | undefined {
  for (const k of ['delayMs', 'times'] as const)
    if (body[k] !== undefined && !(Number.isInteger(body[k]) && (body[k] as number) >= 0))
      return `${k} must be a non-negative integer`;
  return undefined;
}

export class RuleBook<Rule extends CountedRule, Call> {
  private rules: Rule[] = [];

  constructor(private readonly matches: (rule: Rule, call: Call) => boolean) {}

  add(rule: Rule): void {
    this.rules.unshift(rule);
  }

  list(): Rule[] {
    return [...this.rules];
  }

  reset(): void {
    this.rules = [];
  }

  /** The newest rule matching one call, consuming one use of a counted rule. */
  take(call: Call): Rule | undefined {
    const i = this.rules.findIndex((rule) => this.matches(rule, call));
    if (i < 0) return undefined;
    const rule = this.rules[i]!;
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.rules.splice(i, 1);
    }
    return rule;
  }
}
