import { createHash } from 'node:crypto';
import type { BankStatementLine, BankValue } from './drivers/bankDriver.js';

/** Money is compared in minor units: floats do not add up exactly. */
export const cents = (amount: number): number => Math.round(amount * 100);

/**
 * The key a statement is stored under, the same however many polls, deliveries or inbound
 * webhooks see it: from the bank's own reference when it gives one, else from the line's fields.
 * Without a reference two identical lines (KBZ: same date, sender, remark and amount) differ
 * only by their place among identical lines of one read (`occurrence`, 0 for the first), which
 * stays the same as long as the portal lists a day's lines in the same order.
 */
export function statementKey(bank: BankValue, line: BankStatementLine, occurrence = 0): string {
  const parts = line.ref
    ? [bank, line.no, 'ref', line.ref]
    : [
        bank,
        line.no,
        line.date,
        line.time,
        line.inflow ? 'in' : 'out',
        cents(line.amount),
        line.name,
        line.remark,
        occurrence,
      ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32);
}

/** Keys of a page of lines, counting identical lines so each gets its own. */
export function statementKeys(bank: BankValue, lines: readonly BankStatementLine[]): string[] {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    const base = statementKey(bank, line, 0);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : statementKey(bank, line, n);
  });
}
