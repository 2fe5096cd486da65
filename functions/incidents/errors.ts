import { ErrorCode } from '../../shared/errors.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';

export class IncidentNotFoundError extends NotFoundError {
  override name = 'IncidentNotFoundError';
  override code: number = ErrorCode.IncidentNotFound;
  constructor(id: number) {
    super(`Incident ${id} does not exist`);
  }
}

/** An action on a resolved incident: nothing is left to act on. */
export class IncidentResolvedError extends ConflictError {
  override name = 'IncidentResolvedError';
  constructor(id: number) {
    super(`Incident ${id} is resolved already`);
  }
}
