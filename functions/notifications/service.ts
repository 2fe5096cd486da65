import { NotificationStatus, NotifyStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import type { Notification } from '../../shared/schemas/notifications.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { logger } from '../lib/logger.js';
import { userRefs } from '../users/refs.js';
import { NotificationNotFoundError } from './errors.js';
import { notificationStore, type StoredNotification } from './store.js';
import { enqueueTelegramDelivery } from './notifyQueue.js';
import { deliverNotification, planTelegram } from './telegram/deliverNotification.js';

export interface NewNotification {
  category: 1 | 2 | 3;
  title: string;
  caption: string;
  content: string;
  link: string;
  from_user_id?: number | null;
  /** The operation it is about: its Telegram message is built from it. */
  operation_id?: number;
}

/**
 * Writes a notification and, when the Telegram settings want it on the chat, enqueues its
 * delivery (docs/notifications.md). A queue that cannot take it leaves the notification Pending
 * and the check goes on: a lost chat message must not fail a check.
 */
export async function createNotification(n: NewNotification): Promise<StoredNotification> {
  const plan = await planTelegram(n.category);
  const created = await notificationStore().create({
    from_user_id: n.from_user_id ?? null,
    category: n.category,
    title: n.title,
    caption: n.caption,
    content: n.content,
    link: n.link,
    status: NotificationStatus.values.Unread,
    read_at: null,
    ...(n.operation_id !== undefined ? { operation_id: n.operation_id } : {}),
    status_tg: plan.status_tg,
    pushed_tg_at: null,
    tg_remark: plan.tg_remark,
  });
  if (plan.status_tg === NotifyStatus.values.Pending) {
    await enqueueTelegramDelivery(created.id).catch((error: unknown) =>
      logger.error('could not enqueue the telegram delivery; it stays Pending', {
        notification_id: created.id,
        error: error as Error,
      }),
    );
  }
  return created;
}

/** POST /notifications/{id}/notify {channel: 2}: SendTG, now, whatever the automatic delivery did. */
export async function sendNotificationToTelegram(id: number): Promise<Notification> {
  const sent = await deliverNotification(id, { mode: 'manual' });
  return (await present([sent]))[0];
}

async function present(rows: StoredNotification[]): Promise<Notification[]> {
  const refs = await userRefs(rows.map((r) => r.from_user_id));
  return rows.map(({ from_user_id, ...r }) => ({ ...r, from_user: refs.get(from_user_id) ?? null }) as Notification);
}

/** Unread first (spec: the list shows what needs reading on top), then newest first. */
export async function listNotifications(query: ListQuery): Promise<ListOutcome<Notification>> {
  const sort = query.sort.length
    ? query.sort
    : [
        { field: 'status', order: 'asc' as const },
        { field: 'created_at', order: 'desc' as const },
      ];
  const page = await notificationStore().list({ ...query, sort });
  return { ...page, result: await present(page.result) };
}

/** New unread notifications since a moment, for the bottom-right web-push toast. */
export async function webNotifications(since: number): Promise<Notification[]> {
  const unread = await notificationStore().listUnread({
    page: 1,
    page_size: 20,
    sort: [],
    keywordField: [],
    filters: { created_at: { kind: 'range', start: since + 1 } },
  });
  return present(unread.result);
}

export async function getNotification(id: number): Promise<Notification> {
  const row = await notificationStore().get(id);
  if (!row) throw new NotificationNotFoundError(id);
  return (await present([row]))[0];
}

/** Opening a notification marks it read; reading it again keeps the first read time. */
export async function markRead(id: number): Promise<Notification> {
  const row = await notificationStore().get(id);
  if (!row) throw new NotificationNotFoundError(id);
  if (row.status === NotificationStatus.values.Read) return (await present([row]))[0];
  const updated = await notificationStore().markRead(id, Date.now());
  return (await present([updated]))[0];
}
