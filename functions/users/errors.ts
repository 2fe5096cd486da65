import { ConflictError, NotFoundError } from '../lib/errors.js';

export class UsernameTakenError extends ConflictError {
  override name = 'UsernameTakenError';
  constructor(username: string) {
    super(`Username ${username} is already taken`, { extra: { username: 'This username is already taken' } });
  }
}

export class UserNotFoundError extends NotFoundError {
  override name = 'UserNotFoundError';
  constructor(id: number) {
    super(`User ${id} does not exist`);
  }
}
