import { describe, expect, it } from 'vitest';
import { MAX_RULE_DEPTH, MAX_RULE_LENGTH, parseRule, type RuleExpr } from './parse.js';

// Every production of the grammar (docs/bank-monitor.md, "Alert rules"), precedence, units, and the
// refusals with their column and what was expected there.

const ok = (text: string): RuleExpr => {
  const r = parseRule(text);
  if (!r.ok) throw new Error(`${text}: ${r.message}`);
  return r.rule.expr;
};
const refused = (text: string) => {
  const r = parseRule(text);
  if (r.ok) throw new Error(`${text} parsed`);
  return r;
};
/** A compact picture of the tree: (a and b), (a or b), figure op value. */
const shape = (e: RuleExpr): string =>
  e.kind === 'compare' ? `${e.figure}${e.op}${e.value}` : `(${e.items.map(shape).join(` ${e.kind} `)})`;

describe('rule language: comparisons', () => {
  it.each([
    ['balance < 1000000', 'balance<1000000'],
    ['balance <= 1000000', 'balance<=1000000'],
    ['credit > 5000000', 'credit>5000000'],
    ['debit >= 5', 'debit>=5'],
    ['drift = 0', 'drift=0'],
    ['drift != 0', 'drift!=0'],
    ['drift <> 0', 'drift!=0'],
    ['balance == 10', 'balance=10'],
    ['balance<10', 'balance<10'],
    ['  balance   <   10  ', 'balance<10'],
    ['BALANCE < 10', 'balance<10'],
    ['drift > -100', 'drift>-100'],
    ['balance < 1000.50', 'balance<1000.5'],
  ])('%s', (text, expected) => {
    expect(shape(ok(text))).toBe(expected);
  });

  it('reads thousands separators', () => {
    expect(shape(ok('balance < 1,000,000'))).toBe('balance<1000000');
    expect(shape(ok('balance < 12,345.67'))).toBe('balance<12345.67');
    expect(shape(ok('balance < 999'))).toBe('balance<999');
  });

  it('reads durations in seconds, minutes, hours and days, alone or combined, as milliseconds', () => {
    expect(shape(ok('no_statement_for > 30s'))).toBe('no_statement_for>30000');
    expect(shape(ok('no_statement_for > 30m'))).toBe('no_statement_for>1800000');
    expect(shape(ok('no_statement_for > 2h'))).toBe('no_statement_for>7200000');
    expect(shape(ok('no_statement_for > 1d'))).toBe('no_statement_for>86400000');
    expect(shape(ok('no_statement_for >= 1h30m'))).toBe('no_statement_for>=5400000');
  });

  it('compares status with = and != to a status name, in any case', () => {
    expect(shape(ok('status = Locked'))).toBe('status=3');
    expect(shape(ok('status != enable'))).toBe('status!=1');
    expect(shape(ok('status = WRONG'))).toBe('status=9');
    expect(shape(ok('status = Incorrect'))).toBe('status=2');
  });
});

describe('rule language: and, or, parentheses', () => {
  it('binds and tighter than or', () => {
    expect(shape(ok('balance < 1 or credit > 2 and debit > 3'))).toBe('(balance<1 or (credit>2 and debit>3))');
    expect(shape(ok('balance < 1 and credit > 2 or debit > 3'))).toBe('((balance<1 and credit>2) or debit>3)');
  });

  it('groups with parentheses', () => {
    expect(shape(ok('(balance < 1 or credit > 2) and debit > 3'))).toBe('((balance<1 or credit>2) and debit>3)');
    expect(shape(ok('((balance < 1))'))).toBe('balance<1');
  });

  it('chains several of one kind flat', () => {
    expect(shape(ok('drift > 1 or drift > 2 or drift > 3'))).toBe('(drift>1 or drift>2 or drift>3)');
    expect(shape(ok('drift > 1 AND drift > 2 and drift > 3'))).toBe('(drift>1 and drift>2 and drift>3)');
  });

  it('reads the issue example and lists the figures a rule names', () => {
    const r = parseRule('balance < 1000000 or no_statement_for > 2h');
    expect(r.ok && shape(r.rule.expr)).toBe('(balance<1000000 or no_statement_for>7200000)');
    expect(r.ok && r.rule.figures.sort()).toEqual(['balance', 'no_statement_for']);
  });
});

describe('rule language: refusals point at the column with what was expected', () => {
  it.each([
    ['', 1, ['figure', 'open']],
    ['   ', 4, ['figure', 'open']],
    ['foo > 1', 1, ['figure', 'open']],
    ['balance', 8, ['comparison']],
    ['balance 1', 9, ['comparison']],
    ['balance <', 10, ['amount']],
    ['balance < 1 and', 16, ['figure', 'open']],
    ['balance < 1 or or', 16, ['figure', 'open']],
    ['balance < 1 credit > 2', 13, ['and', 'or', 'end']],
    ['(balance < 1', 13, ['and', 'or', 'close']],
    ['balance < 1)', 12, ['and', 'or', 'end']],
    ['()', 2, ['figure', 'open']],
    ['balance < 1 $', 13, ['and', 'or', 'end']],
    ['status > Locked', 8, ['equality']],
    ['status Locked', 8, ['equality']],
    ['status = Asleep', 10, ['status']],
    ['status = 3', 10, ['status']],
  ] as const)('%j at column %i', (text, column, expected) => {
    expect(refused(text)).toMatchObject({ column, expected });
  });

  it('refuses a value of the wrong kind where it stands: a duration for money, an amount for a duration', () => {
    expect(refused('balance > 2h')).toMatchObject({
      column: 11,
      expected: ['amount'],
      found: '2h',
      message: expect.stringContaining('balance compares with an amount'),
    });
    expect(refused('balance < 1 or no_statement_for > 100')).toMatchObject({ column: 35, expected: ['duration'] });
    expect(refused('credit > Locked')).toMatchObject({ column: 10, expected: ['amount'] });
  });

  it('refuses malformed numbers and units', () => {
    expect(refused('balance < 1,00,000')).toMatchObject({
      column: 11,
      expected: ['amount'],
      message: expect.stringContaining('groups of three'),
    });
    expect(refused('balance < 1000,')).toMatchObject({ column: 11 });
    expect(refused('no_statement_for > 2w')).toMatchObject({
      column: 20,
      expected: ['duration'],
      message: expect.stringContaining('Unknown unit "w"'),
    });
    expect(refused('no_statement_for > 1.5h')).toMatchObject({ column: 20, expected: ['duration'] });
    expect(refused('no_statement_for > 1h30')).toMatchObject({ column: 22, expected: ['duration'] });
    expect(refused('no_statement_for > -2h')).toMatchObject({ column: 20, expected: ['duration'] });
  });

  it('says what it found and what it expected, in words', () => {
    expect(refused('balance <').message).toBe(
      'Column 10: expected an amount such as 1,000,000, found the end of the rule',
    );
    expect(refused('(balance < 1').message).toBe('Column 13: expected "and", "or" or ")", found the end of the rule');
    expect(refused('foo < 1').message).toContain('Unknown figure "foo"');
  });

  it('bounds length, nesting and comparisons', () => {
    expect(refused(`balance < 1${' '.repeat(MAX_RULE_LENGTH)}`)).toMatchObject({ column: MAX_RULE_LENGTH + 1 });
    const deep = `${'('.repeat(MAX_RULE_DEPTH + 1)}balance < 1${')'.repeat(MAX_RULE_DEPTH + 1)}`;
    expect(refused(deep)).toMatchObject({ column: MAX_RULE_DEPTH + 1 });
    expect(ok(`${'('.repeat(MAX_RULE_DEPTH)}balance < 1${')'.repeat(MAX_RULE_DEPTH)}`)).toBeTruthy();
    const many = Array.from({ length: 21 }, () => 'drift > 1').join(' or ');
    expect(refused(many).message).toContain('At most 20 comparisons');
  });
});
