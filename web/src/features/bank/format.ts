import { Bank } from '@shared/enums';
import { EMPTY_TEXT } from '@/app/constants';

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Balances and amounts: '1,234.50'; '/' when absent. */
export function formatAmount(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY_TEXT;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? money.format(n) : String(value);
}

/**
 * A statement's date as its bank gives it. KBZ gives the day only, so its statements show the date
 * and never a made-up time (spec section 3); AYA shows date and time.
 */
export function statementDate(row: { bank_name: number; human_date: string | null | undefined }): string {
  const text = row.human_date?.trim();
  if (!text) return EMPTY_TEXT;
  return row.bank_name === Bank.values.KBZ ? text.slice(0, 10) : text;
}
