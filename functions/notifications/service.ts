import { NotificationStatus, NotifyStatus } from '../../shared/enums.js';
import type { ListQuery } from '../../shared/listQuery.js';
import type { Notification } from '../../shared/schemas/notifications.js';
import type { KeptCounts, ListOutcome } from '../lib/db/entity.js';
import { defineFollowUp, type FollowUpContext } from '../lib/db/outbox.js';
import { logger } from '../lib/logger.js';
import { userRefs } from '../users/refs.js';
import { NotificationNotFoundError } from './errors.js';
import { notificationStore, type StoredNotification } from './store.js';
import { enqueueTelegramDelivery } from './notifyQueue.js';
import { deliverNotification, planTelegram } from './telegram/deliverNotification.js';

/** What a sender gives; the rest of the row (status, read_at, the Telegram channel) is set here. */
export type NewNotification = Pick<StoredNotification, 'category' | 'title' | 'caption' | 'content' | 'link'> &
  Partial<Pick<StoredNotification, 'from_user_id' | 'operation_id'>> & {
    /** Not a Telegram message whatever the settings say, and why (an operation its incidents tell of). */
    telegram?: string;
  };

/**
 * Writes a notification and, when the Telegram settings want it on the chat, enqueues its
 * delivery (docs/notifications.md). A queue that cannot take it leaves the notification Pending
 * and the caller goes on: a lost chat message must not fail what it reports.
 */
export async function createNotification(n: NewNotification): Promise<StoredNotification> {
  const store = notificationStore();
  const row = await writeNotificationOnce(await store.newId(), n);
  await enqueueWhilePending(row).catch((error: unknown) =>
    logger.error('could not enqueue the telegram delivery; it stays Pending', {
      notification_id: row.id,
      error: error as Error,
    }),
  );
  return row;
}

/**
 * The notification of a cause that allocated `id` beforehand (a check's end, as a follow-up):
 * written once, however often this runs, and its Telegram delivery enqueued while it is Pending. A
 * second run may enqueue it again; the notifier sends a notification once (it claims it first).
 */
export const writeNotification = defineFollowUp(
  'notifications.write',
  async ({ id, ...n }: NewNotification & { id: number }, context?: FollowUpContext) => {
    await enqueueWhilePending(await writeNotificationOnce(id, n, context?.counts));
  },
);

/** An id for `writeNotification`, allocated by its cause before the cause's transition records it. */
export function newNotificationId(): Promise<number> {
  return notificationStore().newId();
}

async function writeNotificationOnce(id: number, n: NewNotification, counts?: KeptCounts): Promise<StoredNotification> {
  const plan = n.telegram
    ? { status_tg: NotifyStatus.values.NoNeed, tg_remark: n.telegram }
    : await planTelegram(n.category);
  const { row } = await notificationStore().createOnce(
    id,
    {
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
    },
    counts,
  );
  return row;
}

async function enqueueWhilePending(row: StoredNotification): Promise<void> {
  if (row.status_tg === NotifyStatus.values.Pending) await enqueueTelegramDelivery(row.id);
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
