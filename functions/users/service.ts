import type { ListQuery } from '../../shared/listQuery.js';
import type { NewUserBody, UpdateUserBody, User } from '../../shared/schemas/users.js';
import type { ListOutcome } from '../lib/db/entity.js';
import type { AuthUser } from '../lib/http/router.js';
import { type Actor, logSecurityEvent } from '../lib/logger.js';
import { OwnAccessChangeError, UserNotFoundError } from './errors.js';
import { hashPassword } from './password.js';
import { sessionsEnded } from './sessionsEnded.js';
import { userStore } from './store.js';
import type { UserRecord } from './userEntity.js';

/** What the API shows of a user: never the hash or the token version. */
export function toPublicUser(user: Omit<UserRecord, 'password_hash'> & { password_hash?: string }): User {
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    role: user.role,
    enabled: user.enabled !== false,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

// Sign-in and sessions (functions/auth) read credentials through these, never through the store.

/** The user signing in, with the password hash (case-insensitive username); undefined when unknown. */
export const userForLogin = (username: string): Promise<UserRecord | undefined> => userStore().findByUsername(username);

/** A user with the password hash and token version: a session checks the version, a password change the hash. */
export const userCredentials = (id: number): Promise<UserRecord | undefined> => userStore().get(id);

/** Replaces the hash (a rehash at login, an own password change); `revokeTokens` ends every session too. */
export async function replacePasswordHash(id: number, passwordHash: string, options: { revokeTokens: boolean }) {
  const user = await userStore().setPasswordHash(id, passwordHash, options);
  if (options.revokeTokens) await sessionsEnded(id);
  return user;
}

/**
 * A user who may act (exists, enabled), as the API knows a caller; for callers that are not a session
 * (Telegram), with the token version a link made now is bound to and a press checks.
 */
export async function activeUser(id: number): Promise<(AuthUser & { token_version: number }) | undefined> {
  const [user] = await userStore().getMany([id]);
  if (!user || user.enabled === false) return undefined;
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    role: user.role,
    token_version: user.token_version ?? 0,
  };
}

/** Ends every session of the user, on every device, and what was made under them (sessionsEnded.ts). */
export async function endSessions(id: number): Promise<void> {
  await userStore().revokeTokens(id);
  await sessionsEnded(id);
}

export async function listUsers(query: ListQuery): Promise<ListOutcome<User>> {
  const outcome = await userStore().list(query);
  return { ...outcome, result: outcome.result.map(toPublicUser) };
}

export async function createUser(body: NewUserBody): Promise<User> {
  const user = await userStore().create({
    username: body.username,
    nickname: body.nickname || body.username,
    role: body.role,
    password_hash: await hashPassword(body.password),
  });
  return toPublicUser(user);
}

/** A super user sets someone's password; that user's sessions end. */
export async function setUserPassword(id: number, pwd: string, actor?: Actor): Promise<User> {
  const store = userStore();
  if (!(await store.get(id))) throw new UserNotFoundError(id);
  const user = toPublicUser(await store.setPasswordHash(id, await hashPassword(pwd), { revokeTokens: true }));
  await sessionsEnded(id);
  logSecurityEvent({
    event: 'password_reset',
    actor: actor?.id ?? 'system',
    target: `user#${id}`,
    client_ip: actor?.client_ip,
    outcome: 'success',
  });
  return user;
}

/**
 * A super user edits someone's nickname, role or enabled flag. Nobody disables or demotes
 * themself (they would lose the page they are on); the store keeps the last enabled super user.
 */
export async function updateUser(actor: AuthUser, id: number, body: UpdateUserBody): Promise<User> {
  if (actor.id === id) {
    if (body.enabled === false) throw new OwnAccessChangeError('enabled');
    if (body.role !== undefined && body.role !== 'super') throw new OwnAccessChangeError('role');
  }
  const user = toPublicUser(await userStore().update(id, body));
  // Disabling bumps the token version in the store's write: what was made under the sessions ends too.
  if (body.enabled === false) await sessionsEnded(id);
  return user;
}
