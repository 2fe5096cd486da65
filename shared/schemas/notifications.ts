import { NotificationCategory, NotificationStatus } from '../enums.js';
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
  /** HTML; the web sanitizes it before rendering. */
  content: field.shown<string>(),
  /** Where the notification points to, e.g. /operations/12 */
  link: field.shown<string>(),
} as const satisfies ListFields;

export interface Notification extends RowOf<typeof notificationListFields> {
  /** Who sent it (stored as from_user_id, named at read time). */
  from_user: UserRef;
}
