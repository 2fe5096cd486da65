import { notificationListFields } from '../../shared/schemas/notifications.js';
import { defineEntity } from '../lib/db/entity.js';
import { createRepository } from '../lib/db/repository.js';

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
}

export const notifications = createRepository(
  defineEntity<StoredNotification>({
    type: 'notification',
    fields: notificationListFields,
    // Unread rows sit in their own slot partition so the web-push poll reads only new ones.
    keys: ['status', 'category'],
    ttlSeconds: 365 * 24 * 3600,
  }),
);
