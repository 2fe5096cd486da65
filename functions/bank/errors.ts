import { ErrorCode } from '../../shared/errors.js';
import { ConflictError, NotFoundError, PatrolError } from '../lib/errors.js';

export class BankAccountNotFoundError extends NotFoundError {
  override name = 'BankAccountNotFoundError';
  override code: number = ErrorCode.BankAccountNotFound;
  constructor(id: number) {
    super(`Bank account ${id} does not exist`);
  }
}

/** No code of its own: the 404 range has no free code left, so it shares NotFound (4040). */
export class SubAccountNotFoundError extends NotFoundError {
  override name = 'SubAccountNotFoundError';
  constructor(id: number | number[]) {
    super(`Sub account ${Array.isArray(id) ? id.join(', ') : id} does not exist`);
  }
}

export class BankAccountExistsError extends ConflictError {
  override name = 'BankAccountExistsError';
  override code: number = ErrorCode.BankAccountExists;
  constructor(user: string) {
    super(`This bank already has an account ${user}`, { extra: { user: `This bank already has an account ${user}` } });
  }
}

/** The stored secret does not decrypt for this account (altered, moved, or from another key). */
export class BankSecretUnreadableError extends ConflictError {
  override name = 'BankSecretUnreadableError';
  override code: number = ErrorCode.BankSecretUnreadable;
  constructor(id: number, field: string, cause: unknown) {
    super(`The stored ${field} of bank account ${id} cannot be read; enter it again`, { cause });
  }
}

/** A refresh the operator asked for could not reach the bank (timeout, 5xx). */
export class BankUnavailableError extends PatrolError {
  override name = 'BankUnavailableError';
  override status = 502;
  override code: number = ErrorCode.BankUnavailable;
}
