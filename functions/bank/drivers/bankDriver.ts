// The contract between the bank poller and a bank's internet-banking portal. A driver knows one
// bank: how to sign in, how its sub-accounts, statements and balances look, and how the portal
// says no. The poller never speaks HTTP to a bank itself and never stores anything through a
// driver: it hands a driver the credentials (and the session it kept) and gets typed rows back.
//
// Like `SiteDriver` for the check engine (functions/checks/drivers), adding a real portal is one
// module implementing `BankDriver` and one `registerBankDriver` call (see docs/bank-driver.md).
import type { Bank, EnumValue } from '../../../shared/enums';

export type BankValue = EnumValue<typeof Bank>;

/** Where the portal is: the sandbox locally, the bank's real portal later. */
export interface BankPortalRef {
  /** Base URL, e.g. https://ibanking.kbzbank.com (a trailing slash is tolerated). */
  url: string;
}

export interface BankCredentials {
  user: string;
  /** Plain password, decrypted by the poller just for this call; never log or return it. */
  pwd: string;
}

/**
 * What a login gives back. The poller keeps it (encrypted: it is a credential) and passes it to
 * later polls of the same account; a driver that meets an expired one throws
 * `BankSessionExpiredError` and the poller signs in again (see `withBankSession`).
 */
export interface BankSession {
  bank: BankValue;
  /** The user it was opened for: a session is never reused after the account's user changes. */
  user: string;
  /** Bearer token / session id the portal expects. */
  token: string;
  /** Cookies the portal set, `name=value` pairs, when it works with cookies. */
  cookies?: Record<string, string>;
  /** When the portal said the session ends (epoch ms); absent when it did not say. */
  expires_at?: number;
}

/** Sub-account detail of KBZ (spec §3 Sub-account). */
export interface KbzSubAccountDetail {
  customer_name: string;
  account_branch: string;
  account_type: string;
  /** YYYY-MM-DD */
  account_opening_date: string;
  product_name: string;
  /** The balances the portal shows for the account (e.g. available, ledger), as it names them. */
  balances: { type: string; amount: number; currency: string }[];
}

/** Sub-account detail of AYA (spec §3 Sub-account). */
export interface AyaSubAccountDetail {
  name: string;
  branch: string;
  currency: string;
  /** YYYY-MM-DD */
  open_date: string;
  available_balance: number;
  /** Percent per year, e.g. 2.5 */
  interest_rate: number;
  current_balance: number;
  /** YYYY-MM-DD HH:mm:ss in the bank's local time, or '' when there was none. */
  last_transaction_date: string;
  hold_amount: number;
}

export type BankSubAccountDetail = KbzSubAccountDetail | AyaSubAccountDetail;

/** One sub-account (a numbered account under the login) as the portal lists it. */
export interface BankSubAccount {
  /** Account number, the sub-account's identity within its login. */
  no: string;
  available_balance: number;
  /** False when the bank reports it unusable (dormant, frozen, closed): sub status 2 Unavailable. */
  usable: boolean;
  /** The bank's reason when unusable, for the operator. */
  unusable_reason?: string;
  detail: BankSubAccountDetail;
}

/** One statement line, in the bank's own terms (mapped to the Statement row by the poller). */
export interface BankStatementLine {
  /** Sub-account number it belongs to. */
  no: string;
  /**
   * The bank's own reference of the transaction when it has one: the poller's dedupe key. Absent:
   * the poller derives a key from the other fields (see docs/bank-driver.md).
   */
  ref?: string;
  /** True for money in, false for money out. */
  inflow: boolean;
  /** Sender (inflow) or receiver as the bank names it; KBZ only, '' for AYA. */
  name: string;
  remark: string;
  /** Positive amount; the direction is `inflow`. */
  amount: number;
  /** YYYY-MM-DD in the bank's local time. */
  date: string;
  /** HH:mm:ss in the bank's local time; AYA only, '' for KBZ (KBZ shows the date only). */
  time: string;
}

export interface StatementPage {
  lines: BankStatementLine[];
  /**
   * Opaque position to pass as `since` on the next fetch of this sub-account; store it as is.
   * Pages may overlap (KBZ filters by date only, so its driver re-reads the current day): the
   * poller stores each line once by its key.
   */
  cursor: string;
}

export interface BankBalance {
  no: string;
  available_balance: number;
  /** Ledger/current balance when the portal shows one apart from the available balance. */
  current_balance?: number;
}

/** Everything a driver call needs besides its own arguments. */
export interface BankDriverContext {
  portal: BankPortalRef;
  credentials: BankCredentials;
  /** Bound of one HTTP call (ms); past it the call fails with `BankTransientError`. */
  timeoutMs: number;
  /** Hosts the outbound URL guard lets through although private (config.allowedPrivateHosts). */
  allowedPrivateHosts?: readonly string[];
}

export interface BankDriver {
  /** Stable name, shown in logs. */
  readonly name: string;
  readonly bank: BankValue;
  /** Signs in. Throws `BankWrongCredentialsError`, `BankAccountLockedError`, ... (errors.ts). */
  login(ctx: BankDriverContext): Promise<BankSession>;
  /** Every sub-account of the login, with its detail (init / refresh). */
  listSubAccounts(ctx: BankDriverContext, session: BankSession): Promise<BankSubAccount[]>;
  /**
   * Statement lines of one sub-account since `since` (a cursor from an earlier page; absent: the
   * portal's recent history, the last 7 days for KBZ and AYA). Throws `BankSubAccountUnusableError` when the bank
   * refuses this sub-account.
   */
  fetchStatements(
    ctx: BankDriverContext,
    session: BankSession,
    query: { no: string; since?: string },
  ): Promise<StatementPage>;
  /** Current balance of every sub-account of the login. */
  fetchBalances(ctx: BankDriverContext, session: BankSession): Promise<BankBalance[]>;
}
