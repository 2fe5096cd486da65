import type { ListQuery } from '../../shared/listQuery.js';
import type { StoredOf } from '../../shared/listFields.js';
import { type ApiTokenScopeValue, apiTokenListFields } from '../../shared/schemas/apiTokens.js';
import { defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { held, onConditionFailure } from '../lib/db/conditionFailure.js';
import { when } from '../lib/db/expr.js';
import { ApiTokenNotFoundError } from './errors.js';

/** A token's row: what the list shows, plus its creator and the digest that finds its key record. */
export type StoredApiToken = StoredOf<typeof apiTokenListFields, { creator_id: number; hash: string }>;
export type NewStoredApiToken = Omit<StoredApiToken, 'id' | 'created_at' | 'updated_at'>;

/**
 * What a call with the token reads: one small item found by the token's digest (0.5 RCU), holding
 * all the check needs, so a scripted client's calls never read the row or the list. Deleted on revoke.
 */
export interface ApiTokenKey {
  token_id: number;
  name: string;
  scope: ApiTokenScopeValue;
  creator_id: number;
  /** The row's `expiry` (`expires_at` is the TTL attribute of every stored record). */
  expiry: number;
  /** 0 until first used: a number, so the once-a-minute condition compares it. */
  last_used_at: number;
}

export interface ApiTokenStore {
  /** The row, then its key record; a key that cannot be written takes its row back. */
  create(row: NewStoredApiToken): Promise<StoredApiToken>;
  get(id: number): Promise<StoredApiToken | undefined>;
  list(query: ListQuery): Promise<ListOutcome<StoredApiToken>>;
  /** The key record of a digest, undefined for an unknown or revoked token. */
  byHash(hash: string): Promise<ApiTokenKey | undefined>;
  /** Drops the key record (the token stops working at once) and marks the row. Throws ApiTokenNotFoundError. */
  revoke(id: number, at: number): Promise<StoredApiToken>;
  /**
   * Stamps a use unless one was stamped since `notBefore` (a conditional write: concurrent calls
   * stamp once); false when another did. The row's copy follows for the list.
   */
  markUsed(key: ApiTokenKey, hash: string, at: number, notBefore: number): Promise<boolean>;
}

export const apiTokenEntity = defineEntity<StoredApiToken>({
  type: 'api_token',
  fields: apiTokenListFields,
  hidden: ['hash'],
});

export function dynamoApiTokenStore(
  repo: DynamoRepository<StoredApiToken> = createRepository(apiTokenEntity),
  keys = keyedRecords<ApiTokenKey>('api_token_key'),
): ApiTokenStore {
  return {
    async create(row) {
      const created = await repo.create(row);
      const key: ApiTokenKey = {
        token_id: created.id,
        name: row.name,
        scope: row.scope,
        creator_id: row.creator_id,
        expiry: row.expiry,
        last_used_at: 0,
      };
      try {
        await keys.put(row.hash, key, { ifAbsent: true });
      } catch (error) {
        await repo.remove(created.id).catch(() => undefined);
        throw error;
      }
      return created;
    },
    get: (id) => repo.get(id),
    list: (query) => repo.list(query),
    byHash: (hash) => keys.get(hash),
    async revoke(id, at) {
      const row = await repo.getWithHidden(id);
      if (!row) throw new ApiTokenNotFoundError(id);
      await keys.remove(row.hash);
      if (row.revoked_at) return row;
      return onConditionFailure(repo.update(id, { revoked_at: at }), () => new ApiTokenNotFoundError(id));
    },
    async markUsed(key, hash, at, notBefore) {
      const stamped = await held(
        keys.update(
          hash,
          { set: { last_used_at: at } },
          // Revoked meanwhile: the record is gone and must not come back as a stub.
          { when: when.and(when.exists(), when.is('last_used_at', '<', notBefore)) },
        ),
      );
      if (stamped) await repo.update(key.token_id, { last_used_at: at }).catch(() => undefined);
      return stamped;
    },
  };
}

let store: ApiTokenStore | undefined;
export function apiTokenStore(): ApiTokenStore {
  store ??= dynamoApiTokenStore();
  return store;
}
