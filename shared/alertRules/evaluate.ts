import { BankAccountStatus } from '../enums.js';
import type { BankAccountStatusValue, Comparison, Figure, RuleFigures } from './figures.js';
import type { Rule, RuleExpr } from './parse.js';

// Evaluates a parsed rule on one poll's figures. A figure the poll does not have (no balance read,
// no balance change for `drift`) makes its comparison unknown rather than false, and unknown
// propagates as in SQL's three-valued logic: `false and unknown` is false, `true or unknown` true,
// anything else with unknown is unknown. The caller keeps an open incident as it is on unknown, so
// a failed poll neither fires a balance rule nor resolves it. `credit` and `debit` are the poll's
// statements: a comparison holds when any one of them satisfies it, and is false when there are none.

export interface RuleOutcome {
  /** The rule holds on these figures. */
  fired: boolean;
  /** The figures could not decide (fired is then false): leave an open incident open, open none. */
  unknown: boolean;
  /** The figure whose comparison decided the outcome, and its value (null when unknown). */
  figure: Figure | null;
  /** An amount (major units), a duration (ms) or a status name. */
  value: number | string | null;
}

type Truth = { truth: boolean | null; figure: Figure | null; value: number | string | null };

const holds = (a: number, op: Comparison, b: number): boolean => {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '=':
      return a === b;
    case '!=':
      return a !== b;
  }
};

/** The figure's value on these figures, a list for the per-statement ones, undefined when unknown. */
function read(figures: RuleFigures, figure: Figure): number | number[] | undefined {
  switch (figure) {
    case 'balance':
      return figures.balance;
    case 'credit':
      return figures.credits;
    case 'debit':
      return figures.debits;
    case 'drift':
      return figures.drift;
    case 'no_statement_for':
      return figures.no_statement_for_ms;
    case 'status':
      return figures.status;
  }
}

function compare(c: Extract<RuleExpr, { kind: 'compare' }>, figures: RuleFigures): Truth {
  const v = read(figures, c.figure);
  if (v === undefined) return { truth: null, figure: c.figure, value: null };
  if (Array.isArray(v)) {
    const matching = v.filter((x) => holds(x, c.op, c.value));
    if (!matching.length) return { truth: false, figure: c.figure, value: v.length ? (v[0] as number) : null };
    // The statement that shows it best: the largest of those above a floor, the smallest below a ceiling.
    const pick = c.op === '<' || c.op === '<=' ? Math.min(...matching) : Math.max(...matching);
    return { truth: true, figure: c.figure, value: pick };
  }
  const value = c.figure === 'status' ? BankAccountStatus.label(v as BankAccountStatusValue) : v;
  return { truth: holds(v, c.op, c.value), figure: c.figure, value };
}

function evaluate(expr: RuleExpr, figures: RuleFigures): Truth {
  if (expr.kind === 'compare') return compare(expr, figures);
  // `and` is decided by its first false item, `or` by its first true one; else unknown if any is.
  const decisive = expr.kind === 'or';
  let unknown: Truth | undefined;
  let first: Truth | undefined;
  for (const item of expr.items) {
    const t = evaluate(item, figures);
    if (t.truth === decisive) return t;
    if (t.truth === null) unknown ??= t;
    else first ??= t;
  }
  return unknown ?? (first as Truth);
}

/** Whether `rule` fires on one poll's figures, and the figure that decided it. */
export function evaluateRule(rule: Rule, figures: RuleFigures): RuleOutcome {
  const t = evaluate(rule.expr, figures);
  if (t.truth === null) return { fired: false, unknown: true, figure: t.figure, value: null };
  return { fired: t.truth, unknown: false, figure: t.figure, value: t.value };
}
