import type {
  Factors,
  LoginResult,
  SecondFactorBody,
  TotpConfirmed,
  TotpEnrolment,
} from '../../shared/schemas/auth.js';
import type { AuthUser } from '../lib/http/router.js';
import { logSecurityEvent } from '../lib/logger.js';
import { UserNotFoundError } from '../users/errors.js';
import { endSessions, userCredentials } from '../users/service.js';
import type { UserRecord } from '../users/userEntity.js';
import {
  FactorNotFoundError,
  SecondFactorCodeUsedError,
  SecondFactorLockedError,
  SecondFactorWrongError,
  TotpAlreadyEnrolledError,
  TotpNotStartedError,
} from './errors.js';
import {
  confirmTotp,
  decryptTotpSecret,
  encryptTotpSecret,
  removeAllFactors,
  removeTotp,
  replaceRecoveryDigests,
  setPendingTotp,
  spendRecoveryDigest,
  userFactors,
  takeTotpStep,
} from './factorStore.js';
import { passkeyCount, passkeySummaries, removeAllPasskeys } from './passkeyFactors.js';
import { newRecoveryCodes, recoveryDigest } from './recoveryCodes.js';
import { finishSignIn, ticketUser } from './signIn.js';
import {
  clearFailures,
  factorThrottleKey,
  ipThrottleKey,
  releaseAttempt,
  reserveAttempt,
  type ThrottleKey,
} from './throttle.js';
import { type FailureCounter, THROTTLE } from './throttlePolicy.js';
import { newTotpSecret, otpauthUrl, totpMatches, totpStep } from './totp.js';

// The second step of sign-in, TOTP enrolment and removal, recovery codes, and a super's reset
// (docs/sign-in.md). Every check of a code is throttled as passwords are (throttle.ts): it takes a
// slot on the user's second-factor counter and on the client address's login counter before the
// code is looked at; a right code gives them back, a wrong one keeps them as failures. Past
// FACTOR_LOCK_AFTER wrong codes of a user (or the address's login limit) in the 15-minute window,
// every code is refused with 429 until the window ends: six digits allow a million codes, so a
// guesser gets a few per quarter hour.

export const FACTOR_LOCK_AFTER = 5;

type Ctx = { ip: string; now: number };

const live = (c: FailureCounter, now: number) => now - c.window_start < THROTTLE.windowMs;

/** Runs `check` (which throws SecondFactorWrongError or SecondFactorCodeUsedError) under the throttle. */
async function throttled<T>(userId: number, ctx: Ctx, check: () => Promise<T>): Promise<T> {
  const keys: [ThrottleKey, ThrottleKey] = [factorThrottleKey(userId), ipThrottleKey(ctx.ip)];
  const counters = await Promise.all(keys.map((k) => reserveAttempt(k, ctx.now)));
  const release = () => Promise.all(keys.map((k, i) => releaseAttempt(k, counters[i])));
  const over = counters
    .map((c, i) => ({ c, limit: i === 0 ? FACTOR_LOCK_AFTER : THROTTLE.lockAfter }))
    .filter(({ c, limit }) => live(c, ctx.now) && c.failures > limit);
  if (over.length) {
    await release();
    const until = Math.max(...over.map(({ c }) => c.window_start + THROTTLE.windowMs));
    logSecurityEvent({
      event: 'second_factor',
      actor: userId,
      client_ip: ctx.ip,
      outcome: 'refused',
      reason: 'throttled',
    });
    throw new SecondFactorLockedError(Math.max(1, Math.ceil((until - ctx.now) / 1000)));
  }
  try {
    const result = await check();
    await Promise.all([clearFailures(keys[0]), releaseAttempt(keys[1], counters[1])]);
    return result;
  } catch (error) {
    if (error instanceof SecondFactorWrongError || error instanceof SecondFactorCodeUsedError) {
      logSecurityEvent({
        event: 'second_factor',
        actor: userId,
        client_ip: ctx.ip,
        outcome: 'failure',
        reason: error.name,
      });
      throw error;
    }
    await release();
    throw error;
  }
}

/** Accepts a TOTP code of the user's app once: its window is taken in the same write. */
async function spendTotpCode(userId: number, code: string, now: number): Promise<void> {
  const factors = await userFactors(userId);
  if (!factors.totpEnc) throw new SecondFactorWrongError();
  const secret = await decryptTotpSecret(userId, factors.totpEnc);
  const step = await totpStep(secret, code, now, factors.lastStep);
  if (step === undefined) {
    // Right but in a window used already: say so, the user waits for the next code.
    if (await totpMatches(secret, code, now)) throw new SecondFactorCodeUsedError();
    throw new SecondFactorWrongError();
  }
  if (!(await takeTotpStep(userId, step))) throw new SecondFactorCodeUsedError();
}

async function spendRecoveryCode(userId: number, code: string): Promise<void> {
  if (!(await spendRecoveryDigest(userId, recoveryDigest(userId, code)))) throw new SecondFactorWrongError();
}

/**
 * `POST /login/second-factor`: a TOTP or recovery code for the ticket's user; the token when
 * right. `identified` names the user to the audit row (the body names only the ticket).
 */
export async function secondFactorSignIn(
  body: SecondFactorBody,
  ip: string,
  identified?: (user: { id: number; username: string }) => void,
  now = Date.now(),
): Promise<LoginResult> {
  const user = await ticketUser(body.ticket, 'second_factor', now);
  identified?.({ id: user.id, username: user.username });
  await throttled(user.id, { ip, now }, () =>
    body.method === 'totp' ? spendTotpCode(user.id, body.code, now) : spendRecoveryCode(user.id, body.code),
  );
  if (body.method === 'recovery') {
    logSecurityEvent({ event: 'recovery_code_use', actor: user.id, client_ip: ip, outcome: 'success' });
  }
  return finishSignIn(body.ticket, 'second_factor', user, body.method, now);
}

/** Who enrols: the ticket's user (an enrol answer) or the signed-in caller. */
export async function enrollingUser(
  ticket: string | undefined,
  caller: AuthUser | undefined,
  now = Date.now(),
): Promise<UserRecord> {
  if (ticket) return ticketUser(ticket, 'enroll', now);
  const user = caller && (await userCredentials(caller.id));
  if (!user) throw new UserNotFoundError(caller?.id ?? 0);
  return user;
}

/** `POST /me/totp`: a new secret to scan or type; it counts once a first code confirms it. */
export async function startTotp(user: UserRecord, now = Date.now()): Promise<TotpEnrolment> {
  const factors = await userFactors(user.id);
  if (factors.totp) throw new TotpAlreadyEnrolledError();
  const secret = newTotpSecret();
  await setPendingTotp(user.id, await encryptTotpSecret(user.id, secret), now);
  return { secret, otpauth_url: otpauthUrl(user.username, secret) };
}

/**
 * `POST /me/totp/confirm`: the first code makes the secret count and answers ten new recovery
 * codes, shown this once; with an enrolment ticket the sign-in ends here with the token.
 */
export async function confirmTotpEnrolment(
  user: UserRecord,
  code: string,
  ctx: { ip: string; ticket?: string },
  now = Date.now(),
): Promise<TotpConfirmed> {
  const factors = await userFactors(user.id);
  if (factors.totp) throw new TotpAlreadyEnrolledError();
  const pending = factors.pendingEnc;
  if (!pending) throw new TotpNotStartedError();
  const secret = await decryptTotpSecret(user.id, pending);
  const step = await throttled(user.id, { ip: ctx.ip, now }, async () => {
    const found = await totpStep(secret, code, now);
    if (found === undefined) throw new SecondFactorWrongError();
    return found;
  });
  const codes = newRecoveryCodes();
  const digests = codes.map((c) => recoveryDigest(user.id, c));
  if (!(await confirmTotp(user.id, pending, step, digests, now))) throw new TotpNotStartedError();
  logSecurityEvent({ event: 'totp_enroll', actor: user.id, client_ip: ctx.ip, outcome: 'success' });
  if (!ctx.ticket) return { recovery_codes: codes };
  return { recovery_codes: codes, ...(await finishSignIn(ctx.ticket, 'enroll', user, 'totp_enroll', now)) };
}

/** `DELETE /me/totp`: a current code removes the app; the user's sessions end (this one too). */
export async function removeOwnTotp(caller: AuthUser, code: string, ip: string, now = Date.now()): Promise<void> {
  const factors = await userFactors(caller.id);
  if (!factors.totp) throw new FactorNotFoundError();
  await throttled(caller.id, { ip, now }, () => spendTotpCode(caller.id, code, now));
  // Recovery codes back up what is left: kept while passkeys remain, else gone with the app.
  await removeTotp(caller.id, (await passkeyCount(caller.id)) > 0);
  await endSessions(caller.id);
  logSecurityEvent({ event: 'totp_remove', actor: caller.id, client_ip: ip, outcome: 'success' });
}

/** `POST /me/recovery-codes`: a current code replaces every unused recovery code with ten new ones. */
export async function regenerateRecoveryCodes(
  caller: AuthUser,
  code: string,
  ip: string,
  now = Date.now(),
): Promise<{ recovery_codes: string[] }> {
  const factors = await userFactors(caller.id);
  if (!factors.totp) throw new FactorNotFoundError();
  await throttled(caller.id, { ip, now }, () => spendTotpCode(caller.id, code, now));
  const codes = newRecoveryCodes();
  if (
    !(await replaceRecoveryDigests(
      caller.id,
      codes.map((c) => recoveryDigest(caller.id, c)),
      now,
    ))
  ) {
    throw new FactorNotFoundError();
  }
  logSecurityEvent({ event: 'recovery_codes_regenerate', actor: caller.id, client_ip: ip, outcome: 'success' });
  return { recovery_codes: codes };
}

/** `GET /me/factors`. */
export async function myFactors(caller: AuthUser): Promise<Factors> {
  const [factors, passkeys] = await Promise.all([userFactors(caller.id), passkeySummaries(caller.id)]);
  return { totp: factors.totp, passkeys, recovery_codes_left: factors.recoveryLeft };
}

/**
 * `POST /super/users/{id}/factors/reset`: a super removes a user's TOTP, recovery codes and
 * passkeys (a lost phone); the user's sessions end, and the next sign-in enrols again if the
 * policy covers them.
 */
export async function resetFactors(
  actor: AuthUser,
  id: number,
  ip: string,
): Promise<{ totp_removed: boolean; passkeys_removed: number }> {
  if (!(await userCredentials(id))) throw new UserNotFoundError(id);
  const [totpRemoved, passkeysRemoved] = await Promise.all([removeAllFactors(id), removeAllPasskeys(id)]);
  await endSessions(id);
  logSecurityEvent({
    event: 'factors_reset',
    actor: actor.id,
    target: `user#${id}`,
    client_ip: ip,
    outcome: 'success',
    totp_removed: totpRemoved,
    passkeys_removed: passkeysRemoved,
  });
  return { totp_removed: totpRemoved, passkeys_removed: passkeysRemoved };
}
