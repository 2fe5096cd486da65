import { ERRORS, ErrorCode } from '../../shared/errors.js';
import { MaintenanceMessages } from '../../shared/schemas/maintenance.js';
import { NotFoundError, PatrolError } from '../lib/errors.js';

export class MaintenanceNotFoundError extends NotFoundError {
  override name = 'MaintenanceNotFoundError';
  override code: number = ErrorCode.MaintenanceNotFound;
  constructor(id: number) {
    super(`Maintenance window ${id} does not exist`);
  }
}

/** Enabling one more window would pass MAX_ENABLED_WINDOWS (issue 43); nothing was saved. */
export class MaintenanceWindowLimitError extends PatrolError {
  override name = 'MaintenanceWindowLimitError';
  override status: number = ERRORS.MaintenanceWindowLimit.status;
  override code: number = ErrorCode.MaintenanceWindowLimit;
  constructor(max: number) {
    super(MaintenanceMessages.tooMany(max));
  }
}
