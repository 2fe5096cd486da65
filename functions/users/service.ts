import type { ListQuery, ListResult } from '../../shared/listQuery.js';
import type { NewUserBody, User } from '../../shared/schemas/users.js';
import { type Actor, logSecurityEvent } from '../lib/logger.js';
import { UserNotFoundError } from './errors.js';
import { hashPassword } from './password.js';
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

export async function listUsers(query: ListQuery): Promise<ListResult<User>> {
  const { result, total_count, page, page_size } = await userStore().list(query);
  return { result: result.map(toPublicUser), total_count, page, page_size };
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
  logSecurityEvent({
    event: 'password_reset',
    actor: actor?.id ?? 'system',
    target: `user#${id}`,
    client_ip: actor?.client_ip,
    outcome: 'success',
  });
  return user;
}
