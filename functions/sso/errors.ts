import { ERRORS, ErrorCode } from '../../shared/errors.js';
import { PatrolError } from '../lib/errors.js';

// Single sign-on's refusals. They answer 400, like the login's (a 401 would read as "your session
// ended" in the web), and the callback hands their codes to the login page, which shows their texts.

export class SsoNotConfiguredError extends PatrolError {
  override name = 'SsoNotConfiguredError';
  override status: number = ERRORS.SsoNotConfigured.status;
  override code: number = ErrorCode.SsoNotConfigured;
  constructor() {
    super(ERRORS.SsoNotConfigured.text);
  }
}

/** A wrong, used or expired state, another browser's callback, the provider's refusal or a token that does not verify. */
export class SsoFailedError extends PatrolError {
  override name = 'SsoFailedError';
  override status: number = ERRORS.SsoFailed.status;
  override code: number = ErrorCode.SsoFailed;
  constructor(
    /** For the security log only: never shown (it may tell an attacker which check failed). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(ERRORS.SsoFailed.text, options);
  }
}

export class SsoUnknownUserError extends PatrolError {
  override name = 'SsoUnknownUserError';
  override status: number = ERRORS.SsoUnknownUser.status;
  override code: number = ErrorCode.SsoUnknownUser;
  constructor() {
    super(ERRORS.SsoUnknownUser.text);
  }
}

export class SsoCodeInvalidError extends PatrolError {
  override name = 'SsoCodeInvalidError';
  override status: number = ERRORS.SsoCodeInvalid.status;
  override code: number = ErrorCode.SsoCodeInvalid;
  constructor() {
    super(ERRORS.SsoCodeInvalid.text);
  }
}

export class SsoProviderUnavailableError extends PatrolError {
  override name = 'SsoProviderUnavailableError';
  override status: number = ERRORS.SsoProviderUnavailable.status;
  override code: number = ErrorCode.SsoProviderUnavailable;
  constructor(options?: { cause?: unknown }) {
    super(ERRORS.SsoProviderUnavailable.text, options);
  }
}
