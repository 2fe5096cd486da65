import { DURATION_UNITS, type DurationUnit } from './figures.js';

// The rule language's tokenizer: words, numbers (with `,` thousands separators), durations (a
// number with a unit, `2h`, or several, `1h30m`), comparison operators and parentheses. Anything
// else becomes a `bad` token the parser reports where it stands, with what it expected there.

export type Token =
  | { kind: 'word'; text: string; column: number }
  | { kind: 'amount'; text: string; value: number; column: number }
  | { kind: 'duration'; text: string; ms: number; column: number }
  | { kind: 'op'; text: string; column: number }
  | { kind: '(' | ')'; text: string; column: number }
  | { kind: 'end'; text: ''; column: number }
  /** Unreadable: `reason` says why (a malformed number, an unknown unit, a stray character). */
  | { kind: 'bad'; text: string; column: number; reason: string };

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
// Digits, optionally grouped by commas, then an optional fraction, then optional unit letters.
const NUMBER = /[0-9][0-9,]*(?:\.[0-9]+)?/y;
const LETTERS = /[A-Za-z]+/y;
const OPS = ['<=', '>=', '!=', '<>', '==', '<', '>', '='];
const THOUSANDS = /^[0-9]{1,3}(,[0-9]{3})*$/;

function match(re: RegExp, text: string, at: number): string | undefined {
  re.lastIndex = at;
  return re.exec(text)?.[0];
}

/** One number or duration starting at `at` (a digit there). */
function numberToken(text: string, at: number): Token {
  const column = at + 1;
  let i = at;
  let ms = 0;
  let units = 0;
  let plain: string | undefined;
  for (;;) {
    const digits = match(NUMBER, text, i);
    if (!digits) break;
    const unit = match(LETTERS, text, i + digits.length);
    const [whole] = digits.split('.');
    if (whole?.includes(',') && !THOUSANDS.test(whole))
      return { kind: 'bad', text: digits, column: i + 1, reason: 'Write thousands in groups of three: 1,000,000' };
    if (!unit) {
      if (units > 0)
        return { kind: 'bad', text: digits, column: i + 1, reason: 'A duration needs a unit: s, m, h or d' };
      plain = digits;
      i += digits.length;
      break;
    }
    if (!(unit in DURATION_UNITS))
      return { kind: 'bad', text: digits + unit, column: i + 1, reason: `Unknown unit "${unit}": use s, m, h or d` };
    if (digits.includes(',') || digits.includes('.'))
      return { kind: 'bad', text: digits + unit, column: i + 1, reason: 'A duration is whole units: 90m, 1h30m' };
    ms += Number(digits) * DURATION_UNITS[unit as DurationUnit];
    units++;
    i += digits.length + unit.length;
  }
  if (plain !== undefined) return { kind: 'amount', text: plain, value: Number(plain.replaceAll(',', '')), column };
  return { kind: 'duration', text: text.slice(at, i), ms, column };
}

/** The tokens of `text`, ending with one `end` token; stops at the first `bad` one. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const column = i + 1;
    if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch, text: ch, column });
      i++;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op) {
      // `<>` and `==` are read as the language writes them (`!=`, `=`), so a habit from SQL or code works.
      tokens.push({ kind: 'op', text: op === '<>' ? '!=' : op === '==' ? '=' : op, column });
      i += op.length;
      continue;
    }
    const word = match(WORD, text, i);
    if (word) {
      tokens.push({ kind: 'word', text: word, column });
      i += word.length;
      continue;
    }
    const negative = ch === '-' && /[0-9]/.test(text[i + 1] ?? '');
    if (/[0-9]/.test(ch) || negative) {
      const token = numberToken(text, negative ? i + 1 : i);
      if (token.kind === 'bad') {
        tokens.push(token);
        return tokens;
      }
      if (negative) {
        if (token.kind !== 'amount') {
          tokens.push({ kind: 'bad', text: `-${token.text}`, column, reason: 'A duration cannot be negative' });
          return tokens;
        }
        token.value = -token.value;
        token.text = `-${token.text}`;
        token.column = column;
      }
      tokens.push(token);
      i += token.text.length;
      continue;
    }
    tokens.push({ kind: 'bad', text: ch, column, reason: `Unexpected "${ch}"` });
    return tokens;
  }
  tokens.push({ kind: 'end', text: '', column: text.length + 1 });
  return tokens;
}
