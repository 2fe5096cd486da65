import { type EnumValue, LoginFailure } from '../../shared/enums.js';
import { ERRORS, ErrorCode } from '../../shared/errors.js';
import {
  BadRequestError,
  ForbiddenError,
  PatrolError,
  registryError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../lib/errors.js';

// Login answers 400, not 401: the web treats every 401 as "your session ended" and
// redirects to the login page, which would swallow the message on the login page itself.

/** Same text for an unknown username and a wrong password, so usernames cannot be probed. */
export class BadCredentialsError extends PatrolError {
  override name = 'BadCredentialsError';
  override status: number = ERRORS.BadCredentials.status;
  override code: number = ErrorCode.BadCredentials;
  constructor(captchaNext: boolean, reason: EnumValue<typeof LoginFailure>) {
    super('Wrong username or password', captchaNext ? { extra: { captcha: 'required' } } : undefined);
    this.auditReason = reason;
  }
}

export class CaptchaRequiredError extends PatrolError {
  override name = 'CaptchaRequiredError';
  override status: number = ERRORS.CaptchaRequired.status;
  override code: number = ErrorCode.CaptchaRequired;
  constructor() {
    super('Too many failed logins, please enter the captcha', { extra: { captcha: 'required' } });
    this.auditReason = LoginFailure.values.Captcha;
  }
}

export class CaptchaWrongError extends PatrolError {
  override name = 'CaptchaWrongError';
  override status: number = ERRORS.CaptchaWrong.status;
  override code: number = ErrorCode.CaptchaWrong;
  constructor() {
    super('Wrong or expired captcha, please try the new one', { extra: { captcha: 'required' } });
    this.auditReason = LoginFailure.values.Captcha;
  }
}

export class LoginLockedError extends TooManyRequestsError {
  override name = 'LoginLockedError';
  constructor(retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(`Too many failed logins, try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, retryAfterSeconds);
    this.auditReason = LoginFailure.values.Throttled;
  }
}

/** A username under attack: one password check per backoff period, even with a solved captcha. */
export class LoginBackoffError extends TooManyRequestsError {
  override name = 'LoginBackoffError';
  constructor(retryAfterSeconds: number) {
    super(
      `Too many failed logins for this user, try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`,
      retryAfterSeconds,
    );
    this.extra = { captcha: 'required' };
    this.auditReason = LoginFailure.values.Throttled;
  }
}

export class AccountDisabledError extends ForbiddenError {
  override name = 'AccountDisabledError';
  constructor() {
    super('This account is disabled, please contact your administrator');
    this.auditReason = LoginFailure.values.Disabled;
  }
}

export class SessionExpiredError extends UnauthorizedError {
  override name = 'SessionExpiredError';
  constructor(options?: { cause?: unknown }) {
    super('Login expired, please login again.', options);
  }
}

export class InvalidTokenError extends UnauthorizedError {
  override name = 'InvalidTokenError';
  constructor(options?: { cause?: unknown }) {
    super('Invalid login token, please login again.', options);
  }
}

export class WrongCurrentPasswordError extends BadRequestError {
  override name = 'WrongCurrentPasswordError';
  /** `field`: the body's name for it, so a form marks that field (`old_pwd` of `POST /pwd`, else `password`). */
  constructor(field = 'old_pwd') {
    super('Current password is wrong', { extra: { [field]: 'Current password is wrong' } });
  }
}

/** A wrong TOTP or recovery code at the second step, at enrolment or when removing the app. */
export class SecondFactorWrongError extends PatrolError {
  override name = 'SecondFactorWrongError';
  override status: number = ERRORS.SecondFactorWrong.status;
  override code: number = ErrorCode.SecondFactorWrong;
  constructor() {
    super('Wrong code', { extra: { code: 'Wrong code' } });
    this.auditReason = LoginFailure.values.WrongCode;
  }
}

/** A TOTP code already accepted in its 30 s window: one code signs in once. */
export class SecondFactorCodeUsedError extends registryError('SecondFactorCodeUsed') {
  override name = 'SecondFactorCodeUsedError';
  constructor() {
    super({ extra: { code: ERRORS.SecondFactorCodeUsed.text } });
    this.auditReason = LoginFailure.values.WrongCode;
  }
}

/** An unknown, expired or used sign-in ticket: the web goes back to the password step. */
export class SignInTicketError extends PatrolError {
  override name = 'SignInTicketError';
  override status: number = ERRORS.SignInTicketInvalid.status;
  override code: number = ErrorCode.SignInTicketInvalid;
  constructor() {
    super('This sign-in has expired, please sign in again');
    this.auditReason = LoginFailure.values.Ticket;
  }
}

export class TotpNotStartedError extends registryError('TotpNotStarted') {
  override name = 'TotpNotStartedError';
}

export class TotpAlreadyEnrolledError extends PatrolError {
  override name = 'TotpAlreadyEnrolledError';
  override status: number = ERRORS.TotpAlreadyEnrolled.status;
  override code: number = ErrorCode.TotpAlreadyEnrolled;
  constructor() {
    super('An authenticator app is set up already; remove it first');
  }
}

export class FactorNotFoundError extends registryError('FactorNotFound') {
  override name = 'FactorNotFoundError';
}

/** Too many wrong second-factor codes for the user (or from the address): like LoginLockedError. */
export class SecondFactorLockedError extends TooManyRequestsError {
  override name = 'SecondFactorLockedError';
  constructor(retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(`Too many wrong codes, try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, retryAfterSeconds);
    this.auditReason = LoginFailure.values.Throttled;
  }
}
