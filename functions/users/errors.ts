import { BadRequestError, ConflictError, NotFoundError } from '../lib/errors.js';

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

/** A super user may not lock themself out: no disabling or demoting one's own account. */
export class OwnAccessChangeError extends BadRequestError {
  override name = 'OwnAccessChangeError';
  constructor(field: 'enabled' | 'role') {
    const message = field === 'enabled' ? 'You cannot disable yourself' : 'You cannot demote yourself';
    super(message, { extra: { [field]: message } });
  }
}

/** The console always keeps one enabled super user, or nobody could manage users any more. */
export class LastSuperUserError extends ConflictError {
  override name = 'LastSuperUserError';
  constructor(field: 'enabled' | 'role') {
    const message = 'The last enabled super user cannot be disabled or demoted';
    super(message, { extra: { [field]: message } });
  }
}
