import { NotifyStatus } from '../../shared/enums.js';

/**
 * A check notification whose Telegram delivery is Pending and was never enqueued, as when its
 * queue message was lost. Imported late: the store reads the stack's environment when loaded.
 */
export async function pendingTelegramNotification(text: { title: string; caption: string }) {
  const { notificationStore } = await import('../../functions/notifications/store.js');
  return notificationStore().create({
    from_user_id: null,
    category: 2,
    ...text,
    content: '<p>still to be sent</p>',
    link: '/operations/1',
    status: 1,
    read_at: null,
    status_tg: NotifyStatus.values.Pending,
    pushed_tg_at: null,
    tg_remark: null,
  });
}
