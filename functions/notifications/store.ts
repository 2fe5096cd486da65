import { NotificationStatus, NotifyStatus } from '../../shared/enums.js';
import type { StoredOf } from '../../shared/listFields.js';
import type { ListQuery } from '../../shared/listQuery.js';
import { notificationListFields } from '../../shared/schemas/notifications.js';
import { ConditionFailedError, defineEntity, type KeptCounts, type ListOutcome } from '../lib/db/entity.js';
import { TRANSITION_RECORD_COUNTS } from '../lib/db/counterGroups.js';
import { newIdOf } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { NotificationNotFoundError } from './errors.js';
// Notifications expire after the system config's retention days for them (`retention` below).
import '../systemConfig/getSystemConfig.js';

type DeclaredNotification = StoredOf<
  typeof notificationListFields,
  {
    from_user_id: number | null;
    /** The operation it is about (operation notifications): the Telegram summary is built from it. */
    operation_id?: number;
    /** Why the Telegram channel is not Success: Telegram's answer or what is missing. */
    tg_remark?: string | null;
    /** Until when one delivery holds the right to send it (hidden): a duplicate message waits instead of posting twice. */
    tg_claim?: number;
  }
>;
/**
 * A notification as stored (the row of shared/schemas/notifications.ts): the sender by id, named at
 * read time. The Telegram channel's fields are absent on rows older than the channel.
 */
export type StoredNotification = Omit<DeclaredNotification, 'status_tg' | 'pushed_tg_at'> &
  Partial<Pick<DeclaredNotification, 'status_tg' | 'pushed_tg_at'>>;

export type NewNotificationRecord = Omit<StoredNotification, 'id' | 'created_at' | 'updated_at'>;

/** Where notifications live; the notifications service depends on this port, not on DynamoDB. */
export interface NotificationStore {
  create(notification: NewNotificationRecord): Promise<StoredNotification>;
  /** An id for `createOnce`, allocated by the cause before the notification is written. */
  newId(): Promise<number>;
  /** Writes it under `id` unless a notification with that id exists; either way answers the stored one. */
  /** `counts`: the row's counts collected in a batch its caller moves once (lib/db/counters.ts CounterBatch). */
  createOnce(
    id: number,
    notification: NewNotificationRecord,
    counts?: KeptCounts,
  ): Promise<{ row: StoredNotification; created: boolean }>;
  get(id: number): Promise<StoredNotification | undefined>;
  list(query: ListQuery): Promise<ListOutcome<StoredNotification>>;
  /** Unread notifications only, read from their own index (the web-push poll). */
  listUnread(query: ListQuery): Promise<ListOutcome<StoredNotification>>;
  /** Marks it read at `readAt`. Throws NotificationNotFoundError. */
  markRead(id: number, readAt: number): Promise<StoredNotification>;
  /** Records the Telegram channel's outcome. Throws NotificationNotFoundError. */
  setTelegram(
    id: number,
    tg: Pick<StoredNotification, 'status_tg' | 'pushed_tg_at' | 'tg_remark'>,
  ): Promise<StoredNotification>;
  /**
   * Takes the right to send its Telegram message until `until`: only while it is Pending and no
   * other delivery holds that right (or its hold ended before `now`). False otherwise.
   */
  claimTelegram(id: number, now: number, until: number): Promise<boolean>;
}

export const notificationEntity = defineEntity<StoredNotification>({
  type: 'notification',
  fields: notificationListFields,
  // Unread rows sit in their own slot partition so the web-push poll reads only new ones.
  keys: ['status', 'category'],
  hidden: ['tg_claim'],
  retention: 'notifications',
  // High volume: day buckets, so no partition takes the type's writes (docs/data-model.md).
  partitioning: { bucket: 'day' },
  // One or more per subtask: ids from a block per process (lib/db/ids.ts), not a counter write each.
  ids: 'blocks',
  // A check's end writes one with its engine event: the day's counts share one item.
  counterGroup: TRANSITION_RECORD_COUNTS,
});

export function dynamoNotificationStore(
  repo: DynamoRepository<StoredNotification> = createRepository(notificationEntity),
): NotificationStore {
  return {
    create: (notification) => repo.create(notification),
    newId: () => newIdOf(notificationEntity),
    createOnce: (id, notification, counts) => repo.createOnce(notification, id, { counts }),
    get: (id) => repo.get(id),
    list: (query) => repo.list(query),
    listUnread: (query) => repo.list(query, { scope: { status: NotificationStatus.values.Unread } }),
    markRead: (id, readAt) =>
      onConditionFailure(
        repo.update(id, { status: NotificationStatus.values.Read, read_at: readAt }),
        () => new NotificationNotFoundError(id),
      ),
    setTelegram: (id, tg) =>
      onConditionFailure(repo.update(id, { ...tg, tg_claim: undefined }), () => new NotificationNotFoundError(id)),
    async claimTelegram(id, now, until) {
      const row = await repo.getWithHidden(id);
      if (row?.status_tg !== NotifyStatus.values.Pending) return false;
      if (row.tg_claim !== undefined && row.tg_claim > now) return false;
      try {
        // Compare-and-set on the hold as read: of two deliveries reading the same, one takes it.
        await repo.update(id, { tg_claim: until }, { expect: { status_tg: row.status_tg, tg_claim: row.tg_claim } });
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
  };
}

let store: NotificationStore | undefined;
/** The process-wide store. */
export function notificationStore(): NotificationStore {
  store ??= dynamoNotificationStore();
  return store;
}
