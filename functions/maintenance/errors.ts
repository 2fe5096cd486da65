import { ErrorCode } from '../../shared/errors.js';
import { NotFoundError } from '../lib/errors.js';

export class MaintenanceNotFoundError extends NotFoundError {
  override name = 'MaintenanceNotFoundError';
  override code: number = ErrorCode.MaintenanceNotFound;
  constructor(id: number) {
    super(`Maintenance window ${id} does not exist`);
  }
}
