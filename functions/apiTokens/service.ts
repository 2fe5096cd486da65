import { createHash, randomBytes } from 'node:crypto';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  API_TOKEN_MAX_LIFETIME_MS,
  API_TOKEN_PREFIX,
  API_TOKEN_SHOWN_CHARS,
  type ApiToken,
  ApiTokenMessages,
  type NewApiToken,
  type NewApiTokenBody,
} from '../../shared/schemas/apiTokens.js';
import { UnauthorizedError, ValidationError } from '../lib/errors.js';
import type { ListOutcome } from '../lib/db/entity.js';
import type { AuthUser } from '../lib/http/router.js';
import { logger } from '../lib/logger.js';
import { userCredentials } from '../users/service.js';
import { userRefs } from '../users/refs.js';
import { apiTokenStore, type StoredApiToken } from './store.js';

/** A token's last use is written at most this often: a script calling every second writes once a minute. */
export const LAST_USE_EVERY_MS = 60_000;

/**
 * The stored digest of a token. SHA-256, not scrypt: a token is 256 random bits, so there is no
 * dictionary to slow down and no preimage to find, and every call with it pays the digest, which
 * a password hash would make ~50 ms of CPU per request.
 */
export const tokenDigest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** `pat_` and 43 base64url characters (32 random bytes). */
const newToken = (): string => API_TOKEN_PREFIX + randomBytes(32).toString('base64url');

export const isApiToken = (bearer: string): boolean => bearer.startsWith(API_TOKEN_PREFIX);

async function rows(stored: StoredApiToken[]): Promise<ApiToken[]> {
  const refs = await userRefs(stored.map((t) => t.creator_id));
  return stored.map(({ creator_id, hash: _hash, updated_at: _u, ...row }) => ({
    ...row,
    creator: refs.get(creator_id) ?? null,
  }));
}

export async function listApiTokens(query: ListQuery): Promise<ListOutcome<ApiToken>> {
  const outcome = await apiTokenStore().list(query);
  return { ...outcome, result: await rows(outcome.result) };
}

export async function createApiToken(body: NewApiTokenBody, creator: AuthUser, now = Date.now()): Promise<NewApiToken> {
  if (body.expires_at <= now) throw new ValidationError({ expires_at: ApiTokenMessages.expiresPast });
  if (body.expires_at > now + API_TOKEN_MAX_LIFETIME_MS)
    throw new ValidationError({ expires_at: ApiTokenMessages.expiresTooFar });
  const token = newToken();
  const stored = await apiTokenStore().create({
    name: body.name,
    scope: body.scope,
    expiry: body.expires_at,
    prefix: token.slice(0, API_TOKEN_SHOWN_CHARS),
    last_used_at: null,
    revoked_at: null,
    creator_id: creator.id,
    hash: tokenDigest(token),
  });
  const [row] = await rows([stored]);
  return { ...row, token };
}

export async function revokeApiToken(id: number, now = Date.now()): Promise<ApiToken> {
  const [row] = await rows([await apiTokenStore().revoke(id, now)]);
  return row;
}

/**
 * The caller behind a `pat_` token: a known, unrevoked, unexpired token whose creator still exists,
 * is enabled and is still a super user (a demoted creator's tokens stop with the demotion). Its
 * `role` is the most its scope allows, so no handler's own role check grants it more. Any failure
 * is one 401, which does not say which of these it was.
 */
const refused = () => new UnauthorizedError('This API token is unknown, revoked or expired');

export async function authenticateApiToken(token: string, now = Date.now()): Promise<AuthUser> {
  const hash = tokenDigest(token);
  const key = await apiTokenStore().byHash(hash);
  if (!key || key.expiry <= now) throw refused();
  const creator = await userCredentials(key.creator_id);
  if (!creator || creator.enabled === false || creator.role !== 'super') throw refused();
  if (key.last_used_at < now - LAST_USE_EVERY_MS) {
    // Awaited (a Lambda may freeze after the answer) but never the call's failure.
    await apiTokenStore()
      .markUsed(key, hash, now, now - LAST_USE_EVERY_MS)
      .catch((error: unknown) => logger.warn('stamping a token use failed', { token_id: key.token_id, error }));
  }
  return {
    id: creator.id,
    username: creator.username,
    nickname: creator.nickname,
    role: key.scope === 'operate' ? 'operator' : 'viewer',
    token: { id: key.token_id, name: key.name, scope: key.scope },
  };
}
