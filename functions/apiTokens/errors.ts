import { ErrorCode } from '../../shared/errors.js';
import { NotFoundError } from '../lib/errors.js';

export class ApiTokenNotFoundError extends NotFoundError {
  override name = 'ApiTokenNotFoundError';
  override code: number = ErrorCode.ApiTokenNotFound;
  constructor(id: number) {
    super(`API token ${id} does not exist`);
  }
}
