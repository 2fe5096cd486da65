import { ConditionFailedError, defineEntity } from '../lib/db/entity.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { TTL_ATTRIBUTE } from '../lib/db/tableSchema.js';
import { claimIfFree, findUniqueClaim, findUniqueOwner, releaseUnique } from '../lib/db/unique.js';

/** A console user's linked Telegram account: the row's id is the user's id (one link per user). */
export interface StoredTelegramLink {
  id: number;
  created_at: number;
  tg_user_id: number;
  tg_username: string | null;
  tg_name: string | null;
  /**
   * The user's token_version when the link was made: a link ends with the sessions of its time, so a
   * press is refused once the user's version moved on (logout, password change, reset, disabling,
   * a factor removed). Absent on links made before it was kept: those count as version 0.
   */
  token_version?: number;
}

/** Where links and link codes live; the service depends on this port. */
export interface TelegramLinkStore {
  /**
   * Keeps a code for a user (a one-time claim, with the time it was made) until `expiresAt` (ms),
   * when the table's TTL drops it; false when the code is taken.
   */
  putCode(code: string, userId: number, expiresAt: number): Promise<boolean>;
  /** Uses a code up: its user and when it was made, or undefined when unknown or used already (by anyone). */
  takeCode(code: string): Promise<{ userId: number; madeAt: number } | undefined>;
  byUser(userId: number): Promise<StoredTelegramLink | undefined>;
  /** The console user a Telegram account is linked to. */
  userOf(tgUserId: number): Promise<number | undefined>;
  /** Links; false when that Telegram account is linked to another user already. Replaces the user's own link. */
  link(userId: number, tg: Omit<StoredTelegramLink, 'id' | 'created_at'>): Promise<boolean>;
  /** Removes the user's link; the link removed, or undefined when there was none. */
  unlink(userId: number): Promise<StoredTelegramLink | undefined>;
  /** Every link (one per linked user: a handful): escalation's private chats. */
  all(): Promise<StoredTelegramLink[]>;
}

const TYPE = 'telegram_link';
const linkEntity = defineEntity<StoredTelegramLink>({ type: TYPE, fields: { id: 'number' } });

export function dynamoTelegramLinkStore(
  repo: DynamoRepository<StoredTelegramLink> = createRepository(linkEntity),
): TelegramLinkStore {
  const unlink = async (userId: number) => {
    const row = await repo.get(userId);
    if (!row) return undefined;
    await repo.remove(userId);
    await releaseUnique(TYPE, 'tg_user', String(row.tg_user_id), userId);
    return row;
  };
  return {
    putCode: (code, userId, expiresAt) =>
      claimIfFree(TYPE, 'code', code, userId, { [TTL_ATTRIBUTE]: Math.ceil(expiresAt / 1000) }),
    async takeCode(code) {
      const claim = await findUniqueClaim(TYPE, 'code', code);
      // The conditional delete decides between two /start with one code: one of them gets it.
      if (!claim || !(await releaseUnique(TYPE, 'code', code, claim.owner))) return undefined;
      return { userId: claim.owner, madeAt: claim.claimed_at };
    },
    byUser: (userId) => repo.get(userId),
    userOf: (tgUserId) => findUniqueOwner(TYPE, 'tg_user', String(tgUserId)),
    async link(userId, tg) {
      const current = await repo.get(userId);
      // The same account linked again (after its link ended with the sessions): bound to today's version.
      if (current?.tg_user_id === tg.tg_user_id) {
        await repo.update(userId, tg);
        return true;
      }
      if (!(await claimIfFree(TYPE, 'tg_user', String(tg.tg_user_id), userId))) return false;
      if (current) await unlink(userId);
      try {
        await repo.create({ ...tg, created_at: Date.now() }, { id: userId });
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // A link made meanwhile for this user: this one replaces it.
        await repo.update(userId, tg);
      }
      return true;
    },
    unlink,
    all: () => repo.all(),
  };
}

let store: TelegramLinkStore | undefined;
export function telegramLinkStore(): TelegramLinkStore {
  store ??= dynamoTelegramLinkStore();
  return store;
}
