import { createHash, randomBytes } from 'node:crypto';
import type { LoginAnswer, LoginResult, SecondFactorMethod } from '../../shared/schemas/auth.js';
import { held } from '../lib/db/conditionFailure.js';
import { when } from '../lib/db/expr.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';
import { logSecurityEvent } from '../lib/logger.js';
import { userCredentials } from '../users/service.js';
import type { UserRecord } from '../users/userEntity.js';
import { SignInTicketError } from './errors.js';
import { userFactors } from './factorStore.js';
import { passkeyCount } from './passkeyFactors.js';
import { policyCovers, secondFactorPolicy } from './policy.js';
import { signToken } from './token.js';

// The one place that decides what a user who passed a first factor (a password, SSO, a passkey)
// gets (docs/sign-in.md):
//   - the token, when a second factor is not needed or was given (a passkey, an SSO provider's MFA
//     the config trusts);
//   - `second_factor: { ticket, methods }`, when the user has a TOTP or passkeys;
//   - `enroll: { ticket }`, when the policy (`auth.second_factor`) covers a user who has neither.
// A ticket is a random 32-byte value handed to the client; the table keeps only its digest, the
// user, its kind and the token version it was made under (a password change meanwhile voids it).
// It lives 5 minutes and is consumed by the step that succeeds, so it signs in once.

export type FirstFactor = 'password' | 'oidc' | 'passkey';
export type TicketKind = 'second_factor' | 'enroll';

export const TICKET_TTL_MS = 5 * 60_000;

interface TicketRecord {
  user_id: number;
  kind: TicketKind;
  via: FirstFactor;
  token_version: number;
  /** Epoch ms; DynamoDB's TTL drops the record later, lazily, so readers check this. */
  valid_until: number;
}

const tickets = keyedRecords<TicketRecord>('signin_ticket', { ttlSeconds: TICKET_TTL_MS / 1000 });
const ticketId = (ticket: string) => createHash('sha256').update(`patrol/signin-ticket\0${ticket}`).digest('base64url');

/** The second factors a user can use now: what the second step offers. */
export async function factorMethods(userId: number): Promise<SecondFactorMethod[]> {
  const [factors, passkeys] = await Promise.all([userFactors(userId), passkeyCount(userId)]);
  const methods: SecondFactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (passkeys > 0) methods.push('passkey');
  // Recovery codes stand in for a factor the user has; alone they are no second factor.
  if (methods.length && factors.recoveryLeft > 0) methods.push('recovery');
  return methods;
}

/** Signs the token `POST /login` has always answered; the one place a sign-in ends. */
export async function issueToken(user: UserRecord, via: string, now = Date.now()): Promise<LoginResult> {
  const { jwt, expires_at } = await signToken(
    { id: user.id, role: user.role, token_version: user.token_version ?? 0 },
    now,
  );
  logSecurityEvent({ event: 'sign_in', actor: user.id, target: `user#${user.id}`, outcome: 'success', via });
  return { jwt, name: user.nickname || user.username, s: user.role, expires_at };
}

async function newTicket(user: UserRecord, kind: TicketKind, via: FirstFactor, now: number): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await tickets.put(ticketId(ticket), {
    user_id: user.id,
    kind,
    via,
    token_version: user.token_version ?? 0,
    valid_until: now + TICKET_TTL_MS,
  });
  return ticket;
}

/**
 * What a user who passed a first factor gets: the token, a second-factor ticket, or an enrolment
 * ticket. OIDC passes `secondFactorDone` when the provider's MFA counts; a passkey sign-in always.
 */
export async function afterFirstFactor(
  user: UserRecord,
  ctx: { ip: string; via: FirstFactor; secondFactorDone?: boolean },
  now = Date.now(),
): Promise<LoginAnswer> {
  if (ctx.secondFactorDone) return issueToken(user, ctx.via, now);
  const methods = await factorMethods(user.id);
  if (methods.length) {
    logSecurityEvent({
      event: 'sign_in',
      actor: user.id,
      client_ip: ctx.ip,
      outcome: 'success',
      step: 'second_factor',
    });
    return { second_factor: { ticket: await newTicket(user, 'second_factor', ctx.via, now), methods } };
  }
  if (policyCovers(await secondFactorPolicy(), user)) {
    logSecurityEvent({ event: 'sign_in', actor: user.id, client_ip: ctx.ip, outcome: 'success', step: 'enroll' });
    return { enroll: { ticket: await newTicket(user, 'enroll', ctx.via, now) } };
  }
  return issueToken(user, ctx.via, now);
}

/**
 * The user a live ticket of this kind was made for, still enabled and with the token version it
 * was made under. Throws SignInTicketError when the ticket is unknown, expired, used or void.
 */
export async function ticketUser(ticket: string, kind: TicketKind, now = Date.now()): Promise<UserRecord> {
  const record = await tickets.get(ticketId(ticket), { consistent: true });
  if (!record || record.kind !== kind || record.valid_until <= now) throw new SignInTicketError();
  const user = await userCredentials(record.user_id);
  if (!user || user.enabled === false || (user.token_version ?? 0) !== record.token_version) {
    throw new SignInTicketError();
  }
  return user;
}

/** Consumes the ticket: true for exactly one caller, however many race for it. */
export async function consumeTicket(ticket: string, kind: TicketKind, now = Date.now()): Promise<boolean> {
  return held(
    tickets.remove(ticketId(ticket), {
      when: when.and(when.exists(), when.is('kind', '=', kind), when.is('valid_until', '>', now)),
    }),
  );
}

/** The step that succeeded with this ticket: consumes it once, then issues the token. */
export async function finishSignIn(
  ticket: string,
  kind: TicketKind,
  user: UserRecord,
  via: string,
  now = Date.now(),
): Promise<LoginResult> {
  if (!(await consumeTicket(ticket, kind, now))) throw new SignInTicketError();
  return issueToken(user, via, now);
}
