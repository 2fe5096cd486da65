import { NotificationCategory, NotificationStatus, NotifyStatus } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import type { UserRef } from './common.js';

export const notificationListFields = {
  ...keyOrderFields,
  category: field.enum(NotificationCategory, { sort: 'bounded', filter: 'key' }),
  title: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  caption: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  status: field.enum(NotificationStatus, { sort: 'bounded', filter: 'key' }),
  read_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  /** The Telegram channel's notify status; absent on notifications older than the channel. */
  status_tg: field.enum(NotifyStatus, { filter: 'bounded' }),
  pushed_tg_at: field.datetime<number | null>({ filter: 'bounded' }),
} as const satisfies ListFields;

type NotificationRow = RowOf<typeof notificationListFields>;

/** `status_tg` and `pushed_tg_at` are absent on notifications written before the Telegram channel existed. */
export interface Notification
  extends Omit<NotificationRow, 'status_tg' | 'pushed_tg_at'>,
    Partial<Pick<NotificationRow, 'status_tg' | 'pushed_tg_at'>> {
  from_user: UserRef;
  /** HTML; the web sanitizes it before rendering. */
  content: string;
  /** Where the notification points to, e.g. /operations/12 */
  link: string;
  /** Why the Telegram channel is not Success (Telegram's answer, or what is missing). */
  tg_remark?: string | null;
  operation_id?: number;
}
