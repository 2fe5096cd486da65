import { BankAccountStatus, type EnumValue } from '../enums.js';

// The figures a bank alert rule may name (issue 45 item 2) and what each compares with: money
// figures with amounts, `no_statement_for` with durations, `status` with the account statuses'
// names. One table, read by the parser (type errors), the evaluator and the console's hints.

export type BankAccountStatusValue = EnumValue<typeof BankAccountStatus>;

/** What a rule is evaluated on: the figures one poll holds (issue 45: "on the figures the poll already holds"). */
export interface RuleFigures {
  /**
   * The account's balance: the sum of its Available sub-accounts' balances, in the currency's major
   * units (kyat, as statements' `amount`); absent when the poll could not read it (a failed poll).
   */
  balance?: number;
  /** Amounts (major units, positive) of the credits (inflows) this poll stored. */
  credits: number[];
  /** Amounts (major units, positive) of the debits (outflows) this poll stored. */
  debits: number[];
  /**
   * Milliseconds since the account's newest statement, counted only inside its monitor ranges
   * (time outside them does not count); absent when unknown.
   */
  no_statement_for_ms?: number;
  /**
   * The reconciliation difference of this poll's balance changes: the largest |difference| of the
   * balance stats it recorded (0 when they all reconciled); absent when no balance changed.
   */
  drift?: number;
  /**
   * The account's status after the poll (the poll always has it); absent in the preview, which has
   * no past statuses (they are not stored): a comparison on it is then unknown.
   */
  status?: BankAccountStatusValue;
}

export const MONEY_FIGURES = ['balance', 'credit', 'debit', 'drift'] as const;
export type MoneyFigure = (typeof MONEY_FIGURES)[number];
export const FIGURES = [...MONEY_FIGURES, 'no_statement_for', 'status'] as const;
export type Figure = (typeof FIGURES)[number];

export const COMPARISONS = ['<', '<=', '>', '>=', '=', '!='] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** What a figure is compared with. */
export type FigureKind = 'amount' | 'duration' | 'status';
export const figureKind = (f: Figure): FigureKind =>
  f === 'no_statement_for' ? 'duration' : f === 'status' ? 'status' : 'amount';

/** Duration units, in milliseconds. */
export const DURATION_UNITS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export type DurationUnit = keyof typeof DURATION_UNITS;

/** Status names a rule may write (case-insensitive), e.g. `status = Locked`. */
export const STATUS_NAMES = Object.keys(BankAccountStatus.values) as (keyof typeof BankAccountStatus.values)[];

/** A duration in ms as the rule language writes it: `2h 5m`, `45s`, `0s`. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.floor(ms / 1000));
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n}${unit}`);
  }
  return parts.length ? parts.slice(0, 2).join(' ') : '0s';
}

/** An amount with thousands separators: 1,000,000 or 1,234.5. */
export const formatAmount = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** A figure's value as an incident's text or the preview shows it. */
export function formatFigureValue(figure: Figure, value: number | string | null): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  return figureKind(figure) === 'duration' ? formatDuration(value) : formatAmount(value);
}
