import type { ListQuery, ListResult } from '../../shared/listQuery.js';
import type { Bank, EnumValue } from '../../shared/enums.js';

// What the alert rules read of the bank's stored figures (scope checks, the preview), as a port the
// entry point fills with the bank's own store (functions/api.ts passes `bankStore()`): the bank's
// poll imports this feature (rulesForAccount), so this feature must not import the bank back.
// Each shape names only the fields read here; the bank's stored rows have them and more.

export interface FigureAccount {
  id: number;
  bank_name: EnumValue<typeof Bank>;
  user: string;
  monitor_range: readonly (readonly [number, number])[];
  created_at: number;
  /** When it was last enabled: silence before any statement counts from here, as the poll counts it. */
  enabled_at?: number | null;
}

export interface FigureSub {
  id: number;
  status: number;
  available_balance: number | null;
}

export interface FigureStatement {
  created_at: number;
  sub_account_id: number;
  inflow: boolean;
  amount: number;
}

export interface FigureBalanceStat {
  created_at: number;
  sub_account_id: number;
  pre_bal: number;
  cur_bal: number;
  difference: number;
}

export interface BankFigures {
  getAccounts(ids: number[]): Promise<FigureAccount[]>;
  /** The accounts being polled (status Enable): the ones a rule is evaluated on. */
  enabledAccounts(): Promise<FigureAccount[]>;
  subsOf(accountId: number): Promise<FigureSub[]>;
  listStatements(query: ListQuery): Promise<ListResult<FigureStatement>>;
  listBalanceStats(query: ListQuery): Promise<ListResult<FigureBalanceStat>>;
}
