import { LoginFailure } from '../../shared/enums.js';
import type { ChangePasswordBody, LoginAnswer, LoginBody, Profile } from '../../shared/schemas/auth.js';
import type { AuthUser } from '../lib/http/router.js';
import { logger, logSecurityEvent, type SecurityOutcome } from '../lib/logger.js';
import { UserNotFoundError } from '../users/errors.js';
import { hashPassword, needsRehash, spendDecoyVerify, verifyPassword } from '../users/password.js';
import { endSessions, replacePasswordHash, userCredentials, userForLogin } from '../users/service.js';
import { consumeCaptcha, parseCaptchaInput } from './captcha.js';
import { confirmCurrentPassword } from './currentPassword.js';
import {
  AccountDisabledError,
  BadCredentialsError,
  CaptchaRequiredError,
  CaptchaWrongError,
  LoginBackoffError,
  LoginLockedError,
} from './errors.js';
import {
  claimCheckSlot,
  clearFailures,
  ipThrottleKey,
  releaseAttempt,
  reserveAttempt,
  type ThrottleKey,
  userThrottleKey,
} from './throttle.js';
import { captchaNext, type FailureCounter, throttleVerdict } from './throttlePolicy.js';
import { afterFirstFactor } from './signIn.js';

/**
 * Password login with throttling per username and per client address (throttlePolicy.ts).
 * The attempt takes its slot on both counters before anything is checked, so parallel guesses
 * are counted one by one; an attempt that never reaches the password, or is right, gives it back.
 * Unknown usernames and wrong passwords look the same, in text and in time. A right password
 * answers the token only when no second factor is due (signIn.ts).
 */
export async function login(body: LoginBody, ip: string, now = Date.now()): Promise<LoginAnswer> {
  const keys: [ThrottleKey, ThrottleKey] = [userThrottleKey(body.username), ipThrottleKey(ip)];
  const counters = (await Promise.all(keys.map((k) => reserveAttempt(k, now)))) as [FailureCounter, FailureCounter];
  const release = () => Promise.all(keys.map((k, i) => releaseAttempt(k, counters[i])));
  const audit = (outcome: SecurityOutcome, reason: string, extra: Record<string, unknown> = {}) =>
    logSecurityEvent({ event: 'login', actor: body.username, client_ip: ip, outcome, reason, ...extra });

  const verdict = throttleVerdict(counters, now);
  if (verdict.kind === 'locked') {
    await release();
    audit('refused', 'client locked');
    throw new LoginLockedError(verdict.retryAfterSeconds);
  }
  if (verdict.kind === 'captcha') {
    const captcha = parseCaptchaInput(body.captcha);
    if (!captcha) {
      await release();
      throw new CaptchaRequiredError();
    }
    // A wrong captcha keeps its slot as a failure, or guessing captchas would never slow anyone down.
    if (!(await consumeCaptcha(captcha.id, captcha.answer, now))) {
      audit('failure', 'wrong captcha');
      throw new CaptchaWrongError();
    }
    if (verdict.backoffMs) {
      // Claimed only with a solved captcha, so wrong-captcha floods cannot keep the owner waiting.
      const waitMs = await claimCheckSlot(keys[0], verdict.backoffMs, now);
      if (waitMs > 0) {
        await release();
        audit('refused', 'username backoff');
        throw new LoginBackoffError(Math.ceil(waitMs / 1000));
      }
    }
  }

  const user = await userForLogin(body.username);
  const passwordOk = user
    ? await verifyPassword(body.password, user.password_hash)
    : await spendDecoyVerify(body.password).then(() => false);
  if (!user || !passwordOk) {
    audit('failure', user ? 'wrong password' : 'unknown username');
    const reason = user ? LoginFailure.values.WrongPassword : LoginFailure.values.UnknownUsername;
    throw new BadCredentialsError(captchaNext(counters, now), reason);
  }
  if (user.enabled === false) {
    audit('refused', 'account disabled', { user_id: user.id });
    throw new AccountDisabledError();
  }

  await Promise.all([clearFailures(keys[0]), releaseAttempt(keys[1], counters[1])]);
  if (needsRehash(user.password_hash)) {
    // Raised scrypt cost reaches existing users at their next login; a failure here must not block it.
    await replacePasswordHash(user.id, await hashPassword(body.password), { revokeTokens: false }).catch((error) =>
      logger.warn('password rehash failed', { error, user_id: user.id }),
    );
  }
  audit('success', 'password', { user_id: user.id });
  // The password is the first factor: the token, the second step or enrolment (signIn.ts).
  return afterFirstFactor(user, { ip, via: 'password' }, now);
}

/** Ends every session of the user, on every device: tokens carry the version this bumps. */
export async function logout(user: AuthUser): Promise<void> {
  await endSessions(user.id);
}

export async function getProfile(user: AuthUser): Promise<Profile> {
  const stored = await userCredentials(user.id);
  if (!stored) throw new UserNotFoundError(user.id);
  return {
    nickname: stored.nickname,
    username: stored.username,
    role: stored.role,
    created_at: stored.created_at,
    updated_at: stored.updated_at,
  };
}

/** Own password change: the old password and every existing session stop working. */
export async function changePassword(user: AuthUser, body: ChangePasswordBody, ip: string): Promise<void> {
  const event = { event: 'password_change', actor: user.id, target: `user#${user.id}`, client_ip: ip } as const;
  await confirmCurrentPassword(user, body.old_pwd, { ip, event: event.event, field: 'old_pwd' });
  await replacePasswordHash(user.id, await hashPassword(body.pwd), { revokeTokens: true });
  logSecurityEvent({ ...event, outcome: 'success' });
}
