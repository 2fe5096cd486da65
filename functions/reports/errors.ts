import { ErrorCode } from '../../shared/errors.js';
import { NotFoundError, registryError } from '../lib/errors.js';

export class ReportNotFoundError extends NotFoundError {
  override name = 'ReportNotFoundError';
  override code: number = ErrorCode.ReportNotFound;
  constructor(id: number) {
    super(`Report ${id} does not exist`);
  }
}

/** POST /reports for a period that has not ended (or a start the schema let through that names none). */
export class ReportPeriodError extends registryError('ReportPeriodInvalid') {
  override name = 'ReportPeriodError';
  constructor(message: string) {
    super({ extra: { start: message } });
    this.message = message;
  }
}
