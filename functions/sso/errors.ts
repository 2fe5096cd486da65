import { registryError } from '../lib/errors.js';

// Single sign-on's refusals. They answer 400, like the login's (a 401 would read as "your session
// ended" in the web), and the callback hands their codes to the login page, which shows their texts.

export class SsoNotConfiguredError extends registryError('SsoNotConfigured') {
  override name = 'SsoNotConfiguredError';
}

/** A wrong, used or expired state, another browser's callback, the provider's refusal or a token that does not verify. */
export class SsoFailedError extends registryError('SsoFailed') {
  override name = 'SsoFailedError';
  constructor(
    /** For the security log only: never shown (it may tell an attacker which check failed). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(options);
  }
}

export class SsoUnknownUserError extends registryError('SsoUnknownUser') {
  override name = 'SsoUnknownUserError';
}

export class SsoCodeInvalidError extends registryError('SsoCodeInvalid') {
  override name = 'SsoCodeInvalidError';
}

export class SsoProviderUnavailableError extends registryError('SsoProviderUnavailable') {
  override name = 'SsoProviderUnavailableError';
}
