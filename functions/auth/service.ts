import type { ChangePasswordBody, LoginBody, LoginResult, Profile } from '../../shared/schemas/auth.js';
import type { AuthUser } from '../lib/http/router.js';
import { logger } from '../lib/logger.js';
import { UserNotFoundError } from '../users/errors.js';
import { hashPassword, needsRehash, spendDecoyVerify, verifyPassword } from '../users/password.js';
import { userStore } from '../users/store.js';
import { consumeCaptcha, parseCaptchaInput } from './captcha.js';
import {
  AccountDisabledError,
  BadCredentialsError,
  CaptchaRequiredError,
  CaptchaWrongError,
  LoginLockedError,
  WrongCurrentPasswordError,
} from './errors.js';
import {
  clearFailures,
  ipThrottleKey,
  readFailures,
  recordFailure,
  type ThrottleKey,
  userThrottleKey,
} from './throttle.js';
import { throttleVerdict } from './throttlePolicy.js';
import { signToken } from './token.js';

async function countFailure(keys: ThrottleKey[], now: number) {
  return Promise.all(keys.map((key) => recordFailure(key, now)));
}

/**
 * Password login with throttling per username and per client IP (throttlePolicy.ts).
 * Unknown usernames and wrong passwords look the same, in text and in time.
 */
export async function login(body: LoginBody, ip: string, now = Date.now()): Promise<LoginResult> {
  const keys = [userThrottleKey(body.username), ipThrottleKey(ip)];
  const verdict = throttleVerdict(await readFailures(keys), now);
  if (verdict.kind === 'locked') throw new LoginLockedError(verdict.retryAfterSeconds);
  if (verdict.kind === 'captcha') {
    const captcha = parseCaptchaInput(body.captcha);
    if (!captcha) throw new CaptchaRequiredError();
    // A wrong captcha counts as a failure, or guessing captchas would never reach the lock.
    if (!(await consumeCaptcha(captcha.id, captcha.answer, now))) {
      await countFailure(keys, now);
      throw new CaptchaWrongError();
    }
  }

  const store = userStore();
  const user = await store.findByUsername(body.username);
  const passwordOk = user
    ? await verifyPassword(body.password, user.password_hash)
    : await spendDecoyVerify(body.password).then(() => false);
  if (!user || !passwordOk) {
    const counters = await countFailure(keys, now);
    throw new BadCredentialsError(throttleVerdict(counters, now).kind !== 'open');
  }
  if (user.enabled === false) throw new AccountDisabledError();

  await clearFailures(keys[0]);
  if (needsRehash(user.password_hash)) {
    // Raised scrypt cost reaches existing users at their next login; a failure here must not block it.
    await store
      .setPasswordHash(user.id, await hashPassword(body.password), { revokeTokens: false })
      .catch((error) => logger.warn('password rehash failed', { error, user_id: user.id }));
  }
  const { jwt, expires_at } = await signToken({ id: user.id, role: user.role, token_version: user.token_version ?? 0 });
  logger.info('login', { user_id: user.id });
  return { jwt, name: user.nickname || user.username, s: user.role, expires_at };
}

/** Ends every session of the user, on every device: tokens carry the version this bumps. */
export async function logout(user: AuthUser): Promise<void> {
  await userStore().revokeTokens(user.id);
}

export async function getProfile(user: AuthUser): Promise<Profile> {
  const stored = await userStore().get(user.id);
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
export async function changePassword(user: AuthUser, body: ChangePasswordBody): Promise<void> {
  const store = userStore();
  const stored = await store.get(user.id);
  if (!stored) throw new UserNotFoundError(user.id);
  if (!(await verifyPassword(body.old_pwd, stored.password_hash))) throw new WrongCurrentPasswordError();
  await store.setPasswordHash(user.id, await hashPassword(body.pwd), { revokeTokens: true });
}
