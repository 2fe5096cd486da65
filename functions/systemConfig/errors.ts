import { ConflictError, NotFoundError } from '../lib/errors.js';

export class ConfigVersionNotFoundError extends NotFoundError {
  override name = 'ConfigVersionNotFoundError';
  constructor(version: number) {
    super(`System config version ${version} does not exist`);
  }
}

/** Two super users saved at once: the later save is refused rather than silently undoing the first. */
export class ConfigChangedError extends ConflictError {
  override name = 'ConfigChangedError';
  constructor(options?: { cause?: unknown }) {
    super('The system config was changed meanwhile, please reload and try again', options);
  }
}
