import { Bank } from '@shared/enums';
import type { AyaSubDetail, KbzSubDetail } from '@shared/schemas/bank';

/** The Extra Information of a sub-account: each bank's own detail fields (spec section 3), in order. */
export const subDetailFields = {
  [Bank.values.KBZ]: [
    ['customer_name', 'Customer Name'],
    ['account_branch', 'Account Branch'],
    ['account_type', 'Account Type'],
    ['account_opening_date', 'Account Opening Date'],
    ['product_name', 'Product Name'],
    ['balances', 'Balances'],
  ] satisfies [keyof KbzSubDetail, string][],
  [Bank.values.AYA]: [
    ['name', 'Name'],
    ['branch', 'Branch'],
    ['currency', 'Currency'],
    ['open_date', 'Open Date'],
    ['available_balance', 'Available Balance'],
    ['interest_rate', 'Interest Rate'],
    ['current_balance', 'Current Balance'],
    ['last_transaction_date', 'Last Transaction Date'],
    ['hold_amount', 'Hold Amount'],
  ] satisfies [keyof AyaSubDetail, string][],
} as const;
