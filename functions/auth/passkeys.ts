import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { LoginAnswer, PasskeySummary } from '../../shared/schemas/auth.js';
import {
  type NewPasskeyBody,
  PASSKEYS_PER_USER,
  type PasskeySignInBody,
  type PasskeySignInOptionsBody,
} from '../../shared/schemas/passkeys.js';
import { config } from '../lib/config.js';
import { BadRequestError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';
import { logSecurityEvent } from '../lib/logger.js';
import type { RateLimitRule } from '../lib/rateLimit.js';
import { endSessions, userCredentials } from '../users/service.js';
import { AccountDisabledError } from './errors.js';
import { PasskeyChallengeExpiredError, PasskeyNotFoundError, PasskeyNotRecognisedError } from './passkeyErrors.js';
import { passkeySummaryOf } from './passkeyFactors.js';
import { type ChallengePurpose, passkeyStore, type StoredPasskey } from './passkeyStore.js';
import { enforceRateLimits } from './rateLimits.js';
import { relyingPartyOf } from './relyingParty.js';
import { afterFirstFactor, finishSignIn, ticketUser } from './signIn.js';

// Passkeys (WebAuthn, through SimpleWebAuthn): several per user, each named, as a second factor
// after the password or, being discoverable and user-verified, as a whole sign-in on their own.
// Every ceremony is two calls: options (a challenge, kept server-side for CHALLENGE_TTL_MS), then
// the browser's answer, which takes that challenge (single use) before anything is verified.

export { passkeyCount, passkeySummaries, removeAllPasskeys } from './passkeyFactors.js';

export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * Options asked for with no session, per client address: each writes a challenge record. Every
 * answer needs its own challenge, so this bounds the answers too (and a forged signature is no
 * guess that gets closer: there is nothing to throttle per user beyond this).
 */
export const PASSKEY_LIMITS = {
  signInOptionsPerClient: { name: 'passkey-options-ip', limit: 30, windowSeconds: 600 },
  registerPerUser: { name: 'passkey-register-user', limit: 30, windowSeconds: 600 },
} as const satisfies Record<string, RateLimitRule>;

/**
 * The user handle the authenticator keeps with a discoverable passkey and returns at sign-in: the
 * user's id (no name or address: the handle is not secret, but it should say nothing about the person).
 */
const userHandleOf = (userId: number) => isoUint8Array.fromUTF8String(String(userId));
function userIdOfHandle(handle: string | undefined): number | undefined {
  if (!handle) return undefined;
  const text = isoBase64URL.toUTF8String(handle);
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined;
}

/** The challenge an answer quotes, from its client data; undefined when that cannot be read. */
function quotedChallenge(clientDataJSON: string): string | undefined {
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the challenge the answer quotes: it must exist, be of this purpose and unexpired. Taken
 * before verification, so a failing answer uses it up too and every challenge verifies at most once.
 */
async function takeChallenge(clientDataJSON: string, purpose: ChallengePurpose, now: number) {
  const challenge = quotedChallenge(clientDataJSON);
  const stored = challenge ? await passkeyStore().takeChallenge(challenge) : undefined;
  if (!challenge || !stored || stored.purpose !== purpose || stored.valid_until < now)
    throw new PasskeyChallengeExpiredError();
  return { challenge, userId: stored.user_id };
}

async function keepChallenge(challenge: string, purpose: ChallengePurpose, userId: number, now: number) {
  await passkeyStore().putChallenge(challenge, { purpose, user_id: userId, valid_until: now + CHALLENGE_TTL_MS });
}

/** `POST /me/passkeys/options`: what `startRegistration()` takes, for the signed-in user. */
export async function registrationOptions(
  user: AuthUser,
  now = Date.now(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingPartyOf(config.publicUrl);
  const existing = await passkeyStore().list(user.id);
  if (existing.length >= PASSKEYS_PER_USER)
    throw new BadRequestError(`At most ${PASSKEYS_PER_USER} passkeys per user: remove one first`);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.nickname || user.username,
    userID: userHandleOf(user.id),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    // The authenticator offers no second passkey for this user where it holds one already.
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    // Discoverable, so it can sign in with no username; verified by PIN or biometrics where the
    // authenticator can (a sign-in with the passkey alone demands it).
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await keepChallenge(options.challenge, 'register', user.id, now);
  return options;
}

/** `POST /me/passkeys`: verifies the registration answer and keeps the passkey under its name. */
export async function registerPasskey(
  user: AuthUser,
  body: NewPasskeyBody,
  ip: string,
  now = Date.now(),
): Promise<PasskeySummary> {
  const rp = relyingPartyOf(config.publicUrl);
  const response = body.response as RegistrationResponseJSON;
  const { challenge, userId } = await takeChallenge(response.response.clientDataJSON, 'register', now);
  const event = { event: 'passkey_register', actor: user.id, target: `user#${user.id}`, client_ip: ip } as const;
  // A challenge handed to another session's user is no challenge of this one.
  if (userId !== user.id) throw new PasskeyChallengeExpiredError();
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    logSecurityEvent({ ...event, outcome: 'failure', reason: (error as Error).message });
    throw new PasskeyNotRecognisedError({ cause: error });
  }
  if (!verified.verified) {
    logSecurityEvent({ ...event, outcome: 'failure', reason: 'not verified' });
    throw new PasskeyNotRecognisedError();
  }
  const info = verified.registrationInfo;
  const passkey: StoredPasskey = {
    user_id: user.id,
    id: info.credential.id,
    name: body.name,
    public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: info.credential.transports ?? [],
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp,
    created_at: now,
    last_used_at: null,
  };
  if ((await passkeyStore().list(user.id)).length >= PASSKEYS_PER_USER)
    throw new BadRequestError(`At most ${PASSKEYS_PER_USER} passkeys per user: remove one first`);
  if (!(await passkeyStore().add(passkey))) throw new BadRequestError('This passkey is registered already');
  logSecurityEvent({ ...event, outcome: 'success', passkey: passkey.id });
  return passkeySummaryOf(passkey);
}

export async function renamePasskey(user: AuthUser, id: string, name: string): Promise<PasskeySummary> {
  if (!(await passkeyStore().rename(user.id, id, name))) throw new PasskeyNotFoundError();
  const renamed = await passkeyStore().get(user.id, id);
  if (!renamed) throw new PasskeyNotFoundError();
  return passkeySummaryOf(renamed);
}

/**
 * `DELETE /me/passkeys/{id}`: the passkey stops working at once (a sign-in reads it fresh), and as
 * with every factor removed, the user's sessions (this one too) and Telegram links end.
 */
export async function removePasskey(user: AuthUser, id: string, ip: string): Promise<PasskeySummary> {
  const removed = await passkeyStore().remove(user.id, id);
  if (!removed) throw new PasskeyNotFoundError();
  await endSessions(user.id);
  logSecurityEvent({
    event: 'passkey_remove',
    actor: user.id,
    target: `user#${user.id}`,
    client_ip: ip,
    outcome: 'success',
    passkey: id,
  });
  // The reply names what went, so the audit row of the removal does too.
  return passkeySummaryOf(removed);
}

/**
 * `POST /login/passkey/options`. With the ticket of a password step: the second factor, asked of
 * that user's passkeys only. Without: a sign-in with a passkey alone, discoverable (no username,
 * the browser offers what it holds for this site) and user-verified.
 */
export async function signInOptions(
  body: PasskeySignInOptionsBody,
  ip: string,
  now = Date.now(),
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingPartyOf(config.publicUrl);
  await enforceRateLimits([[PASSKEY_LIMITS.signInOptionsPerClient, ip]]);
  if (body.ticket) {
    const user = await ticketUser(body.ticket, 'second_factor');
    const passkeys = await passkeyStore().list(user.id);
    if (!passkeys.length) throw new PasskeyNotRecognisedError();
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports })),
      userVerification: 'preferred',
      timeout: CHALLENGE_TTL_MS,
    });
    await keepChallenge(options.challenge, 'second_factor', user.id, now);
    return options;
  }
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
  });
  await keepChallenge(options.challenge, 'sign_in', 0, now);
  return options;
}

/**
 * `POST /login/passkey`: verifies the answer against the stored passkey (signature, origin, RP ID,
 * counter; user verification when it signs in alone), records the use, then signs in: alone, both
 * factors at once (the device and its PIN or biometrics); with a ticket, the ticket's second step.
 */
export async function signInWithPasskey(
  body: PasskeySignInBody,
  ctx: { ip: string; identified?: (user: { id: number; username: string }) => void },
  now = Date.now(),
): Promise<LoginAnswer> {
  const { ip } = ctx;
  const rp = relyingPartyOf(config.publicUrl);
  const response = body.response as AuthenticationResponseJSON;
  const purpose: ChallengePurpose = body.ticket ? 'second_factor' : 'sign_in';
  const { challenge, userId: challengeUser } = await takeChallenge(response.response.clientDataJSON, purpose, now);
  const ticketHolder = body.ticket ? await ticketUser(body.ticket, 'second_factor') : undefined;
  // The ticket proves the password: its user is who this call is, whatever the passkey says.
  if (ticketHolder) ctx.identified?.(ticketHolder);
  // The ticket step's user is the ticket's (and the challenge was made for it); alone, the passkey names its user.
  const userId = ticketHolder ? ticketHolder.id : userIdOfHandle(response.response.userHandle);
  const refuse = (reason: string, cause?: unknown): never => {
    logSecurityEvent({
      event: 'passkey_sign_in',
      actor: userId ?? 0,
      client_ip: ip,
      outcome: 'failure',
      reason,
      passkey: response.id,
    });
    throw new PasskeyNotRecognisedError(cause === undefined ? undefined : { cause });
  };
  if (!userId) return refuse('no user handle');
  if (ticketHolder && ticketHolder.id !== challengeUser) return refuse('challenge of another sign-in');

  const passkey = await passkeyStore().get(userId, response.id);
  if (!passkey) return refuse('unknown passkey');
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.id,
        publicKey: isoBase64URL.toBuffer(passkey.public_key),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
      requireUserVerification: purpose === 'sign_in',
    });
  } catch (error) {
    return refuse((error as Error).message, error);
  }
  if (!verified.verified) return refuse('not verified');

  // Who the passkey belongs to is known only now that it verified: a disabled user is told so, and
  // the refused attempt does not count as the passkey's use.
  const user = ticketHolder ?? (await userCredentials(userId));
  if (!user) return refuse('user gone');
  ctx.identified?.(user);
  if (user.enabled === false) {
    logSecurityEvent({
      event: 'passkey_sign_in',
      actor: userId,
      client_ip: ip,
      outcome: 'refused',
      reason: 'disabled',
    });
    throw new AccountDisabledError();
  }
  if (!(await passkeyStore().recordUse(userId, passkey.id, verified.authenticationInfo.newCounter, now)))
    return refuse('counter did not advance, or removed meanwhile');
  logSecurityEvent({
    event: 'passkey_sign_in',
    actor: userId,
    client_ip: ip,
    outcome: 'success',
    passkey: passkey.id,
    step: purpose,
  });
  if (body.ticket) return finishSignIn(body.ticket, 'second_factor', user, 'passkey');
  return afterFirstFactor(user, { ip, via: 'passkey', secondFactorDone: true });
}
