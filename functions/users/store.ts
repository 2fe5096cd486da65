import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import { ConditionFailedError, type ListOutcome } from '../lib/db/entity.js';
import { nextId } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { claimUnique, findUniqueOwner, releaseUnique, UniqueTakenError } from '../lib/db/unique.js';
import { onConditionFailure } from '../lib/onConditionFailure.js';
import { UsernameTakenError, UserNotFoundError } from './errors.js';
import { type UserRecord, userEntity } from './userEntity.js';

export type NewUserRecord = Omit<UserRecord, 'id' | 'created_at' | 'updated_at' | 'token_version' | 'enabled'>;

/** Where users live; services depend on this port, not on DynamoDB. */
export interface UserStore {
  /** Throws UsernameTakenError when the username (case-insensitive) belongs to someone. */
  create(user: NewUserRecord): Promise<UserRecord>;
  /** With the password hash. */
  get(id: number): Promise<UserRecord | undefined>;
  /** With the password hash; case-insensitive. */
  findByUsername(username: string): Promise<UserRecord | undefined>;
  /** Without password hashes; ids that are missing are left out. */
  getMany(ids: number[]): Promise<Omit<UserRecord, 'password_hash'>[]>;
  /** Without password hashes. */
  list(query: ListQuery): Promise<ListOutcome<Omit<UserRecord, 'password_hash'>>>;
  hasAnyUser(): Promise<boolean>;
  /** Replaces the hash and, when `revokeTokens`, ends every session of the user in the same write. */
  setPasswordHash(id: number, passwordHash: string, options: { revokeTokens: boolean }): Promise<UserRecord>;
  /** Ends every session of the user. */
  revokeTokens(id: number): Promise<void>;
}

const TYPE = userEntity.type;

export function dynamoUserStore(repo: DynamoRepository<UserRecord> = createRepository(userEntity)): UserStore {
  async function readOrThrow(id: number): Promise<UserRecord> {
    const user = await repo.getWithHidden(id);
    if (!user) throw new UserNotFoundError(id);
    return user;
  }

  return {
    async create(user) {
      // The id comes first so the username claim can name its owner before the row exists;
      // a failed row write hands the username back.
      const id = await nextId(TYPE);
      try {
        await claimUnique(TYPE, 'username', user.username, id);
      } catch (error) {
        if (error instanceof UniqueTakenError) throw new UsernameTakenError(user.username);
        throw error;
      }
      try {
        const now = Date.now();
        const created = await repo.create(
          { ...user, token_version: 0, enabled: true, created_at: now, updated_at: now },
          { id },
        );
        return { ...created, password_hash: user.password_hash };
      } catch (error) {
        await releaseUnique(TYPE, 'username', user.username, id);
        throw error;
      }
    },

    get: (id) => repo.getWithHidden(id),

    async findByUsername(username) {
      const id = await findUniqueOwner(TYPE, 'username', username);
      return id === undefined ? undefined : repo.getWithHidden(id);
    },

    getMany: (ids) => repo.getMany(ids),
    list: (query) => repo.list(query),

    async hasAnyUser() {
      const page = await repo.list(emptyListQuery({ page_size: 1 }));
      return page.result.length > 0;
    },

    async setPasswordHash(id, passwordHash, { revokeTokens }) {
      // Conditional on the version read, so a logout racing this write is not lost.
      for (let attempt = 0; attempt < 3; attempt++) {
        const user = await readOrThrow(id);
        const version = user.token_version ?? 0;
        try {
          const updated = await repo.update(
            id,
            { password_hash: passwordHash, token_version: revokeTokens ? version + 1 : version },
            { expect: { token_version: user.token_version } },
          );
          return { ...updated, password_hash: passwordHash };
        } catch (error) {
          if (!(error instanceof ConditionFailedError)) throw error;
        }
      }
      throw new Error(`User ${id} kept changing while setting the password`);
    },

    async revokeTokens(id) {
      await onConditionFailure(repo.add(id, { token_version: 1 }), () => new UserNotFoundError(id));
    },
  };
}

let store: UserStore | undefined;
/** The process-wide store. */
export function userStore(): UserStore {
  store ??= dynamoUserStore();
  return store;
}
