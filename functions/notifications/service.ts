import { NotificationStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import type { Notification } from '../../shared/schemas/notifications.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { userRefs } from '../users/refs.js';
import { NotificationNotFoundError } from './errors.js';
import { notificationStore, type StoredNotification } from './store.js';

/** What a sender gives; the rest of the row (status, read_at) starts unread. */
export type NewNotification = Pick<StoredNotification, 'category' | 'title' | 'caption' | 'content' | 'link'> &
  Partial<Pick<StoredNotification, 'from_user_id'>>;

export function createNotification(n: NewNotification): Promise<StoredNotification> {
  return notificationStore().create({
    from_user_id: n.from_user_id ?? null,
    category: n.category,
    title: n.title,
    caption: n.caption,
    content: n.content,
    link: n.link,
    status: NotificationStatus.values.Unread,
    read_at: null,
  });
}

async function present(rows: StoredNotification[]): Promise<Notification[]> {
  const refs = await userRefs(rows.map((r) => r.from_user_id));
  return rows.map(({ from_user_id, ...r }) => ({ ...r, from_user: refs.get(from_user_id) ?? null }));
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
