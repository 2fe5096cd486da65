import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import { ConditionFailedError, type ListOutcome } from '../lib/db/entity.js';
import { nextId } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { claimUnique, findUniqueOwner, releaseUnique, UniqueTakenError } from '../lib/db/unique.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { LastSuperUserError, UsernameTakenError, UserNotFoundError } from './errors.js';
import { dynamoSuperSeats, type SuperSeats } from './superSeats.js';
import { type UserRecord, userEntity } from './userEntity.js';

export type NewUserRecord = Omit<UserRecord, 'id' | 'created_at' | 'updated_at' | 'token_version' | 'enabled'>;

/** What a super user may change of someone (PUT /super/users/{id}). */
export type UserPatch = Partial<Pick<UserRecord, 'nickname' | 'role' | 'enabled'>>;

/** An enabled super user: one who can manage users. */
const holdsSeat = (u: Pick<UserRecord, 'role'> & { enabled?: boolean }) => u.role === 'super' && u.enabled !== false;

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
  /**
   * Changes nickname, role or enabled. Disabling ends every session in the same write. Throws
   * LastSuperUserError, changing nothing, when the change would leave no enabled super user, also
   * when two such changes race.
   */
  update(id: number, patch: UserPatch): Promise<UserRecord>;
}

const TYPE = userEntity.type;

export function dynamoUserStore(
  repo: DynamoRepository<UserRecord> = createRepository(userEntity),
  seats: SuperSeats = dynamoSuperSeats(),
): UserStore {
  const ensureSeats = () => seats.ensure(async () => (await repo.all()).filter(holdsSeat).length);

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
      if (holdsSeat(user)) await ensureSeats();
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
        if (holdsSeat(created)) await seats.take();
        return { ...created, password_hash: user.password_hash };
      } catch (error) {
        await releaseUnique(TYPE, 'username', user.username, id);
        throw error;
      }
    },

    async update(id, patch) {
      await ensureSeats();
      for (let attempt = 0; attempt < 3; attempt++) {
        const user = await readOrThrow(id);
        const next = { ...user, ...patch };
        const losesSeat = holdsSeat(user) && !holdsSeat(next);
        const gainsSeat = !holdsSeat(user) && holdsSeat(next);
        const disables = user.enabled !== false && patch.enabled === false;
        // The seat goes first: of two supers demoting each other, only one gets past this line.
        if (losesSeat && !(await seats.release())) {
          throw new LastSuperUserError(patch.enabled === false ? 'enabled' : 'role');
        }
        const version = user.token_version ?? 0;
        try {
          // Conditional on what was read, so the seat bookkeeping matches the row it changed.
          const updated = await repo.update(
            id,
            { ...patch, ...(disables ? { token_version: version + 1 } : {}) },
            { expect: { role: user.role, enabled: user.enabled, token_version: user.token_version } },
          );
          if (gainsSeat) await seats.take();
          return { ...updated, password_hash: user.password_hash };
        } catch (error) {
          if (losesSeat) await seats.take();
          if (!(error instanceof ConditionFailedError)) throw error;
        }
      }
      throw new Error(`User ${id} kept changing while updating it`);
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
