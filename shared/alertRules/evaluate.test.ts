import { describe, expect, it } from 'vitest';
import { evaluateRule } from './evaluate.js';
import { formatDuration, formatFigureValue, type RuleFigures } from './figures.js';
import { parseRule, type Rule } from './parse.js';
import { msInRanges } from './rangeTime.js';

const rule = (text: string): Rule => {
  const r = parseRule(text);
  if (!r.ok) throw new Error(r.message);
  return r.rule;
};
const idle: RuleFigures = { balance: 5_000_000, credits: [], debits: [], status: 1, no_statement_for_ms: 60_000 };
const on = (text: string, figures: Partial<RuleFigures>) => evaluateRule(rule(text), { ...idle, ...figures });
const HOUR = 3_600_000;

describe('evaluating a rule on one poll figures', () => {
  it('fires the issue example on either side, with the figure that decided it', () => {
    const example = 'balance < 1,000,000 or no_statement_for > 2h';
    expect(on(example, {})).toEqual({ fired: false, unknown: false, figure: 'balance', value: 5_000_000 });
    expect(on(example, { balance: 999_999.5 })).toMatchObject({ fired: true, figure: 'balance', value: 999_999.5 });
    expect(on(example, { no_statement_for_ms: 2 * HOUR + 1 })).toMatchObject({
      fired: true,
      figure: 'no_statement_for',
      value: 2 * HOUR + 1,
    });
    expect(on(example, { no_statement_for_ms: 2 * HOUR })).toMatchObject({ fired: false });
  });

  it('fires credit and debit when any one statement of the poll does, naming the largest past a floor', () => {
    expect(on('credit > 5,000,000', { credits: [10, 6_000_000, 7_000_000] })).toMatchObject({
      fired: true,
      value: 7_000_000,
    });
    expect(on('credit < 100', { credits: [500, 20, 50] })).toMatchObject({ fired: true, value: 20 });
    // Debits are not credits, and a poll without statements fires neither (and is no unknown).
    expect(on('credit > 5,000,000', { debits: [9_000_000] })).toEqual({
      fired: false,
      unknown: false,
      figure: 'credit',
      value: null,
    });
    expect(on('debit >= 9,000,000', { debits: [9_000_000] })).toMatchObject({ fired: true, value: 9_000_000 });
  });

  it('compares status by name and shows the status label', () => {
    expect(on('status = Locked', { status: 3 })).toMatchObject({ fired: true, value: 'Locked' });
    expect(on('status != Enable', { status: 1 })).toMatchObject({ fired: false, value: 'Enable' });
    expect(on('status = Locked', { status: undefined })).toMatchObject({ fired: false, unknown: true });
  });

  it('evaluates drift only when the poll recorded a balance change', () => {
    expect(on('drift > 0', { drift: 50 })).toMatchObject({ fired: true, value: 50 });
    expect(on('drift > 0', { drift: 0 })).toMatchObject({ fired: false, unknown: false });
    expect(on('drift > 0', {})).toMatchObject({ fired: false, unknown: true, value: null });
  });

  it('keeps and binding tighter than or when evaluating', () => {
    const text = 'balance < 1 or credit > 2 and debit > 3';
    expect(on(text, { credits: [5] }).fired).toBe(false);
    expect(on(text, { credits: [5], debits: [5] }).fired).toBe(true);
    expect(on('(balance < 1 or credit > 2) and debit > 3', { credits: [5] }).fired).toBe(false);
  });

  it('treats a figure the poll lacks as unknown, in three-valued logic', () => {
    const noBalance = { balance: undefined };
    // unknown or true → true; unknown or false → unknown; unknown and false → false; unknown and true → unknown.
    expect(on('balance < 1 or credit > 2', { ...noBalance, credits: [5] })).toMatchObject({ fired: true });
    expect(on('balance < 1 or credit > 2', noBalance)).toMatchObject({ fired: false, unknown: true });
    expect(on('balance < 1 and credit > 2', noBalance)).toMatchObject({ fired: false, unknown: false });
    expect(on('balance < 1 and credit > 2', { ...noBalance, credits: [5] })).toMatchObject({ unknown: true });
    expect(on('no_statement_for > 1h', { no_statement_for_ms: undefined })).toMatchObject({ unknown: true });
  });
});

describe('figure values in words', () => {
  it('writes amounts with separators, durations in units, statuses by name', () => {
    expect(formatFigureValue('balance', 1_234_567.5)).toBe('1,234,567.5');
    expect(formatFigureValue('no_statement_for', 2 * HOUR + 5 * 60_000)).toBe('2h 5m');
    expect(formatFigureValue('status', 'Locked')).toBe('Locked');
    expect(formatFigureValue('drift', null)).toBe('—');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(86_400_000 + 3 * HOUR + 7_000)).toBe('1d 3h');
  });
});

describe('time inside the monitor ranges', () => {
  const zone = 'Asia/Yangon';
  const at = (day: number, hms: string) => Date.parse(`2026-11-${String(day).padStart(2, '0')}T${hms}+06:30`);
  const business: [number, number][] = [[9 * 3600, 17 * 3600]];

  it('counts the whole span for an all-day range and nothing for none', () => {
    expect(msInRanges([[0, 86_400]], at(23, '10:00:00'), at(23, '12:30:00'), zone)).toBe(2.5 * HOUR);
    expect(msInRanges([], at(23, '10:00:00'), at(23, '12:30:00'), zone)).toBe(0);
    expect(msInRanges([[0, 86_400]], at(23, '12:00:00'), at(23, '11:00:00'), zone)).toBe(0);
  });

  it('skips the night outside a business range', () => {
    // 16:00 to 10:00 the next day: 1 h before 17:00, 1 h after 09:00.
    expect(msInRanges(business, at(23, '16:00:00'), at(24, '10:00:00'), zone)).toBe(2 * HOUR);
    // Started and ended outside: the full day between.
    expect(msInRanges(business, at(23, '20:00:00'), at(25, '06:00:00'), zone)).toBe(8 * HOUR);
    expect(msInRanges(business, at(23, '17:00:00'), at(24, '09:00:00'), zone)).toBe(0);
  });

  it('adds several ranges of a day, with fractions of a second', () => {
    const split: [number, number][] = [
      [9 * 3600, 12 * 3600],
      [13 * 3600, 17 * 3600],
    ];
    expect(msInRanges(split, at(23, '11:00:00') + 500, at(23, '14:00:00'), zone)).toBe(2 * HOUR - 500);
  });
});
