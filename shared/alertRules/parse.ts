import { BankAccountStatus } from '../enums.js';
import {
  type BankAccountStatusValue,
  COMPARISONS,
  type Comparison,
  FIGURES,
  type Figure,
  type FigureKind,
  figureKind,
  STATUS_NAMES,
} from './figures.js';
import { type Token, tokenize } from './tokens.js';

// The rule language's parser: recursive descent over the tokens, one function per production of
// the grammar in docs/bank-monitor.md ("Alert rules"). `and` binds tighter than `or`. A figure is
// compared with a value of its own kind, so `balance > 2h` is refused where `2h` stands, as a
// syntax error is. Shared: the API refuses a rule with it and the console marks the column as one
// types.

/** A rule as parsed: a tree of `and` / `or` over comparisons. */
export type RuleExpr =
  | { kind: 'and' | 'or'; items: RuleExpr[] }
  | {
      kind: 'compare';
      figure: Figure;
      op: Comparison;
      /** An amount (major units), a duration (ms) or a status value. */
      value: number;
      column: number;
    };

export interface Rule {
  expr: RuleExpr;
  /** The figures the rule names (a poll need not work out the others). */
  figures: Figure[];
}

/** What the parser expected where it stopped (the console words each in the user's language). */
export const EXPECTED = [
  'figure',
  'open',
  'close',
  'comparison',
  'equality',
  'amount',
  'duration',
  'status',
  'and',
  'or',
  'end',
] as const;
export type Expected = (typeof EXPECTED)[number];

export type ParseResult =
  | { ok: true; rule: Rule }
  | {
      ok: false;
      /** 1-based column of the token that does not fit. */
      column: number;
      expected: Expected[];
      /** What stands there ('' at the end). */
      found: string;
      /** The whole refusal in English: the API's message. */
      message: string;
    };

/** Bounds: a rule is a line an operator reads, and the poll evaluates every rule of an account. */
export const MAX_RULE_LENGTH = 500;
export const MAX_RULE_DEPTH = 10;
export const MAX_RULE_COMPARISONS = 20;

const WORDS: Record<Expected, string> = {
  figure: 'a figure (balance, credit, debit, no_statement_for, drift, status)',
  open: '"("',
  close: '")"',
  comparison: 'a comparison (<, <=, >, >=, =, !=)',
  equality: '= or !=',
  amount: 'an amount such as 1,000,000',
  duration: 'a duration such as 30m, 2h or 1d',
  status: `a status (${STATUS_NAMES.join(', ')})`,
  and: '"and"',
  or: '"or"',
  end: 'the end of the rule',
};

const list = (items: string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** The English text of a refusal (the console has its own words for each `expected`). */
export function describeExpected(expected: readonly Expected[]): string {
  return list(expected.map((e) => WORDS[e]));
}

class RuleSyntaxError extends Error {
  constructor(
    readonly token: Token,
    readonly expected: Expected[],
    readonly reason?: string,
  ) {
    super(reason ?? `Expected ${describeExpected(expected)}`);
  }
}

const isWord = (t: Token, word: string) => t.kind === 'word' && t.text.toLowerCase() === word;
const kindOfToken: Partial<Record<Token['kind'], FigureKind>> = {
  amount: 'amount',
  duration: 'duration',
  word: 'status',
};

class Parser {
  private at = 0;
  private depth = 0;
  private comparisons = 0;
  readonly figures = new Set<Figure>();

  constructor(private readonly tokens: Token[]) {}

  /** The current token (a method, not a getter: narrowing it must not outlive the calls that move on). */
  private tok(): Token {
    return this.tokens[this.at] as Token;
  }

  private fail(expected: Expected[], reason?: string): never {
    const t = this.tok();
    throw new RuleSyntaxError(t, expected, t.kind === 'bad' ? t.reason : reason);
  }

  /** rule = or_expr end */
  rule(): RuleExpr {
    const expr = this.orExpr();
    if (this.tok().kind !== 'end')
      this.fail(['and', 'or', 'end'], this.tok().kind === ')' ? 'There is no "(" for this ")"' : undefined);
    return expr;
  }

  /** or_expr = and_expr { "or" and_expr } */
  private orExpr(): RuleExpr {
    const items = [this.andExpr()];
    while (isWord(this.tok(), 'or')) {
      this.at++;
      items.push(this.andExpr());
    }
    return items.length === 1 ? (items[0] as RuleExpr) : { kind: 'or', items };
  }

  /** and_expr = primary { "and" primary } */
  private andExpr(): RuleExpr {
    const items = [this.primary()];
    while (isWord(this.tok(), 'and')) {
      this.at++;
      items.push(this.primary());
    }
    return items.length === 1 ? (items[0] as RuleExpr) : { kind: 'and', items };
  }

  /** primary = "(" or_expr ")" | comparison */
  private primary(): RuleExpr {
    if (this.tok().kind !== '(') return this.comparison();
    if (++this.depth > MAX_RULE_DEPTH) this.fail(['figure'], `At most ${MAX_RULE_DEPTH} parentheses deep`);
    this.at++;
    const inner = this.orExpr();
    if (this.tok().kind !== ')') this.fail(['and', 'or', 'close']);
    this.at++;
    this.depth--;
    return inner;
  }

  /** comparison = figure operator value, the value of the figure's kind */
  private comparison(): RuleExpr {
    const head = this.tok();
    const figure = head.kind === 'word' ? FIGURES.find((f) => f === head.text.toLowerCase()) : undefined;
    if (!figure) this.fail(['figure', 'open'], head.kind === 'word' ? `Unknown figure "${head.text}"` : undefined);
    if (++this.comparisons > MAX_RULE_COMPARISONS) this.fail(['end'], `At most ${MAX_RULE_COMPARISONS} comparisons`);
    this.at++;
    const kind = figureKind(figure);
    const opToken = this.tok();
    const op = opToken.kind === 'op' ? COMPARISONS.find((c) => c === opToken.text) : undefined;
    if (!op) this.fail([kind === 'status' ? 'equality' : 'comparison']);
    if (kind === 'status' && op !== '=' && op !== '!=')
      this.fail(['equality'], 'A status is compared with = or != only');
    this.at++;
    const value = this.value(figure, kind);
    this.at++;
    this.figures.add(figure);
    return { kind: 'compare', figure, op, value, column: head.column };
  }

  /** amount | duration | status name, as the figure's kind wants */
  private value(figure: Figure, kind: FigureKind): number {
    const t = this.tok();
    if (kind === 'amount' && t.kind === 'amount') return t.value;
    if (kind === 'duration' && t.kind === 'duration') return t.ms;
    if (kind === 'status' && t.kind === 'word') {
      const name = STATUS_NAMES.find((n) => n.toLowerCase() === t.text.toLowerCase());
      if (name) return BankAccountStatus.values[name] as BankAccountStatusValue;
      this.fail(['status'], `Unknown status "${t.text}"`);
    }
    const found = kindOfToken[t.kind];
    // A value of another kind is a type error, reported where that value stands.
    if (found && t.kind !== 'word')
      this.fail(
        [kind],
        `${figure} compares with ${WORDS[kind]}, not ${t.kind === 'amount' ? 'an amount' : 'a duration'}`,
      );
    return this.fail([kind]);
  }
}

/** Parses a rule; a refusal names the 1-based column and what was expected there. */
export function parseRule(expression: string): ParseResult {
  if (expression.length > MAX_RULE_LENGTH) {
    const column = MAX_RULE_LENGTH + 1;
    return {
      ok: false,
      column,
      expected: ['end'],
      found: '',
      message: `Column ${column}: a rule is at most ${MAX_RULE_LENGTH} characters`,
    };
  }
  const parser = new Parser(tokenize(expression));
  try {
    const expr = parser.rule();
    return { ok: true, rule: { expr, figures: [...parser.figures] } };
  } catch (error) {
    if (!(error instanceof RuleSyntaxError)) throw error;
    const { token, expected } = error;
    const found = token.kind === 'end' ? 'the end of the rule' : `"${token.text}"`;
    const why = error.reason ? `${error.reason}` : `expected ${describeExpected(expected)}, found ${found}`;
    return {
      ok: false,
      column: token.column,
      expected,
      found: token.text,
      message: `Column ${token.column}: ${error.reason ? `${why} (expected ${describeExpected(expected)})` : why}`,
    };
  }
}
