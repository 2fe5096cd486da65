import { ERRORS, ErrorCode } from '../../shared/errors.js';
import { PatrolError } from '../lib/errors.js';

// Passkey failures. A sign-in that does not verify says one thing whatever the reason (unknown,
// removed or another user's credential, a bad signature, a counter that went back), so a caller
// learns nothing about which credentials exist; the reason goes to the security log only.

export class PasskeysUnavailableError extends PatrolError {
  override name = 'PasskeysUnavailableError';
  override status: number = ERRORS.PasskeysUnavailable.status;
  override code: number = ErrorCode.PasskeysUnavailable;
  constructor() {
    super(ERRORS.PasskeysUnavailable.text);
  }
}

export class PasskeyNotFoundError extends PatrolError {
  override name = 'PasskeyNotFoundError';
  override status: number = ERRORS.PasskeyNotFound.status;
  override code: number = ErrorCode.PasskeyNotFound;
  constructor() {
    super(ERRORS.PasskeyNotFound.text);
  }
}

export class PasskeyNotRecognisedError extends PatrolError {
  override name = 'PasskeyNotRecognisedError';
  override status: number = ERRORS.PasskeyNotRecognised.status;
  override code: number = ErrorCode.PasskeyNotRecognised;
  constructor(options?: { cause?: unknown }) {
    super(ERRORS.PasskeyNotRecognised.text, options);
  }
}

/** The challenge the answer quotes is unknown, used already, expired or made for another step. */
export class PasskeyChallengeExpiredError extends PatrolError {
  override name = 'PasskeyChallengeExpiredError';
  override status: number = ERRORS.PasskeyChallengeExpired.status;
  override code: number = ErrorCode.PasskeyChallengeExpired;
  constructor() {
    super(ERRORS.PasskeyChallengeExpired.text);
  }
}
