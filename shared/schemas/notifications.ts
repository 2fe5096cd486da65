import type { ListFields } from '../listQuery.js';
import type { UserRef } from './common.js';

export interface Notification {
  id: number;
  from_user: UserRef;
  category: 1 | 2 | 3;
  title: string;
  caption: string;
  /** HTML; the web sanitizes it before rendering. */
  content: string;
  status: 1 | 2;
  read_at: number | null;
  /** Where the notification points to, e.g. /operations/12 */
  link: string;
  created_at: number;
}

export const notificationListFields = {
  id: 'number',
  category: 'enum',
  title: 'text',
  caption: 'text',
  status: 'enum',
  read_at: 'datetime',
  created_at: 'datetime',
} as const satisfies ListFields;
