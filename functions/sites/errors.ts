import { ErrorCode } from '../../shared/errors.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';

export class SiteNotFoundError extends NotFoundError {
  override name = 'SiteNotFoundError';
  override code: number = ErrorCode.SiteNotFound;
  constructor(id: number) {
    super(`Site ${id} does not exist`);
  }
}

export class SiteAccountNotFoundError extends NotFoundError {
  override name = 'SiteAccountNotFoundError';
  override code: number = ErrorCode.SiteAccountNotFound;
  constructor(id: number) {
    super(`Site account ${id} does not exist`);
  }
}

export class SiteExistsError extends ConflictError {
  override name = 'SiteExistsError';
  override code: number = ErrorCode.SiteExists;
  constructor(name: string) {
    super(`A site named ${name} already exists`, { extra: { name: `A site named ${name} already exists` } });
  }
}

/** The stored password does not decrypt for this account (altered, moved from another row, or a v1 secret). */
export class SiteAccountPasswordUnreadableError extends ConflictError {
  override name = 'SiteAccountPasswordUnreadableError';
  override code = 4092;
  constructor(id: number, cause: unknown) {
    super(`The stored password of site account ${id} cannot be read; enter it again`, { cause });
  }
}
