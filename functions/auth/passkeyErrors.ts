import { registryError } from '../lib/errors.js';

// Passkey failures. A sign-in that does not verify says one thing whatever the reason (unknown,
// removed or another user's credential, a bad signature, a counter that went back), so a caller
// learns nothing about which credentials exist; the reason goes to the security log only.

export class PasskeysUnavailableError extends registryError('PasskeysUnavailable') {
  override name = 'PasskeysUnavailableError';
}

export class PasskeyNotFoundError extends registryError('PasskeyNotFound') {
  override name = 'PasskeyNotFoundError';
}

export class PasskeyNotRecognisedError extends registryError('PasskeyNotRecognised') {
  override name = 'PasskeyNotRecognisedError';
}

/** The challenge the answer quotes is unknown, used already, expired or made for another step. */
export class PasskeyChallengeExpiredError extends registryError('PasskeyChallengeExpired') {
  override name = 'PasskeyChallengeExpiredError';
}
