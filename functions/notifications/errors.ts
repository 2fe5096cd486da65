import { ErrorCode } from '../../shared/errors.js';
import { NotFoundError } from '../lib/errors.js';

export class NotificationNotFoundError extends NotFoundError {
  override name = 'NotificationNotFoundError';
  override code: number = ErrorCode.NotificationNotFound;
  constructor(id: number) {
    super(`Notification ${id} does not exist`);
  }
}
