import { NotificationStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import { notificationListFields } from '../../shared/schemas/notifications.js';
import { defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { onConditionFailure } from '../lib/onConditionFailure.js';
import { NotificationNotFoundError } from './errors.js';
// Notifications expire after the system config's retention days for them (`retention` below).
import '../systemConfig/getSystemConfig.js';

export interface StoredNotification {
  id: number;
  from_user_id: number | null;
  category: 1 | 2 | 3;
  title: string;
  caption: string;
  content: string;
  status: 1 | 2;
  read_at: number | null;
  link: string;
  created_at: number;
  /** The operation it is about (operation notifications): the Telegram summary is built from it. */
  operation_id?: number;
  /** Telegram channel (NotifyStatus): No Need, Pending, Success, Channel Closed, NO Target or Failed. */
  status_tg?: number;
  pushed_tg_at?: number | null;
  /** Why the Telegram channel is not Success: Telegram's answer or what is missing. */
  tg_remark?: string | null;
}

export type NewNotificationRecord = Omit<StoredNotification, 'id' | 'created_at'>;

/** Where notifications live; the notifications service depends on this port, not on DynamoDB. */
export interface NotificationStore {
  create(notification: NewNotificationRecord): Promise<StoredNotification>;
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
}

export const notificationEntity = defineEntity<StoredNotification>({
  type: 'notification',
  fields: notificationListFields,
  // Unread rows sit in their own slot partition so the web-push poll reads only new ones.
  keys: ['status', 'category'],
  retention: 'notifications',
});

export function dynamoNotificationStore(
  repo: DynamoRepository<StoredNotification> = createRepository(notificationEntity),
): NotificationStore {
  return {
    create: (notification) => repo.create(notification),
    get: (id) => repo.get(id),
    list: (query) => repo.list(query),
    listUnread: (query) => repo.list(query, { scope: { status: NotificationStatus.values.Unread } }),
    markRead: (id, readAt) =>
      onConditionFailure(
        repo.update(id, { status: NotificationStatus.values.Read, read_at: readAt }),
        () => new NotificationNotFoundError(id),
      ),
    setTelegram: (id, tg) => onConditionFailure(repo.update(id, tg), () => new NotificationNotFoundError(id)),
  };
}

let store: NotificationStore | undefined;
/** The process-wide store. */
export function notificationStore(): NotificationStore {
  store ??= dynamoNotificationStore();
  return store;
}
