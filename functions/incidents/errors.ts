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

/** An action of the other kind of incident: Re-run and maintenance on a bank incident, Poll now or Disable account on a check's. */
export class IncidentActionKindError extends ConflictError {
  override name = 'IncidentActionKindError';
  constructor(id: number, action: string, kind: string) {
    super(`Incident ${id} is a ${kind} incident: ${action} is not one of its actions`);
  }
}
