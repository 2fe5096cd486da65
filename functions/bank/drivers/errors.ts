// Why a bank call failed, typed, so the poller maps it to an account or sub-account status without
// reading messages. Each message is what an operator reads (it names what the bank did), and never
// contains a password, token or cookie.
import { BankAccountStatus, type EnumValue, SubAccountStatus } from '../../../shared/enums';

export type BankErrorKind =
  | 'wrong_credentials'
  | 'locked'
  | 'unexpected_data'
  | 'session_expired'
  | 'sub_unusable'
  | 'transient';

export abstract class BankDriverError extends Error {
  abstract readonly kind: BankErrorKind;
  /** HTTP status the portal answered, when it answered. */
  readonly statusCode?: number;
  constructor(message: string, opts: { cause?: unknown; statusCode?: number } = {}) {
    super(message, { cause: opts.cause });
    this.statusCode = opts.statusCode;
  }
}

/** The portal refused the user/password: account status 2 Incorrect. */
export class BankWrongCredentialsError extends BankDriverError {
  readonly kind = 'wrong_credentials';
  override name = 'BankWrongCredentialsError';
  constructor(bankMsg: string, statusCode?: number) {
    super(`Login refused: ${bankMsg}`, { statusCode });
  }
}

/** The portal says the login is locked: account status 3 Locked. */
export class BankAccountLockedError extends BankDriverError {
  readonly kind = 'locked';
  override name = 'BankAccountLockedError';
  constructor(bankMsg: string, statusCode?: number) {
    super(`Account locked: ${bankMsg}`, { statusCode });
  }
}

/** The portal answered something the driver cannot read (bad JSON, missing fields): status 9 Wrong. */
export class BankUnexpectedDataError extends BankDriverError {
  readonly kind = 'unexpected_data';
  override name = 'BankUnexpectedDataError';
  constructor(call: string, detail: string, statusCode?: number) {
    super(`Unexpected answer from ${call}: ${detail}`, { statusCode });
  }
}

/** The session the call used is no longer valid: the caller signs in again (no status change). */
export class BankSessionExpiredError extends BankDriverError {
  readonly kind = 'session_expired';
  override name = 'BankSessionExpiredError';
  constructor(call: string, statusCode?: number) {
    super(`Session expired at ${call}`, { statusCode });
  }
}

/** The bank refuses one sub-account (dormant, frozen, closed): sub-account status 2 Unavailable. */
export class BankSubAccountUnusableError extends BankDriverError {
  readonly kind = 'sub_unusable';
  override name = 'BankSubAccountUnusableError';
  constructor(
    readonly no: string,
    bankMsg: string,
    statusCode?: number,
  ) {
    super(`Sub-account ${no} unavailable: ${bankMsg}`, { statusCode });
  }
}

/** Timeout, connection failure or 5xx: try again at the next poll (no status change). */
export class BankTransientError extends BankDriverError {
  readonly kind = 'transient';
  override name = 'BankTransientError';
  constructor(message: string, opts: { cause?: unknown; statusCode?: number } = {}) {
    super(message, opts);
  }
}

export type BankAccountStatusValue = EnumValue<typeof BankAccountStatus>;
export type SubAccountStatusValue = EnumValue<typeof SubAccountStatus>;

/**
 * The account status a failed poll sets, or undefined when the status stays as it is (session
 * expired: sign in again; transient: next poll; a sub-account's own trouble: see subAccountStatusFor).
 * Anything that is not a BankDriverError is a driver bug reading the portal: 9 Wrong.
 */
export function accountStatusFor(err: unknown): BankAccountStatusValue | undefined {
  if (!(err instanceof BankDriverError)) return BankAccountStatus.values.Wrong;
  switch (err.kind) {
    case 'wrong_credentials':
      return BankAccountStatus.values.Incorrect;
    case 'locked':
      return BankAccountStatus.values.Locked;
    case 'unexpected_data':
      return BankAccountStatus.values.Wrong;
    default:
      return undefined;
  }
}

/** The sub-account status a failure sets: 2 Unavailable when the bank refuses the sub-account. */
export function subAccountStatusFor(err: unknown): SubAccountStatusValue | undefined {
  return err instanceof BankDriverError && err.kind === 'sub_unusable'
    ? SubAccountStatus.values.Unavailable
    : undefined;
}

/** The operator-facing message of anything a driver call can throw. */
export function bankErrorMessage(err: unknown): string {
  if (err instanceof BankDriverError) return err.message;
  return `Bank poll failed: ${err instanceof Error ? err.message : String(err)}`;
}
