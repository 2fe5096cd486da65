import { NotFoundError } from '../lib/errors.js';

export class NotificationNotFoundError extends NotFoundError {
  override name = 'NotificationNotFoundError';
  override code = 4043;
  constructor(id: number) {
    super(`Notification ${id} does not exist`);
  }
}
