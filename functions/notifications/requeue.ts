import { NotifyStatus } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import { createdBeforeStart, type StartupEvent } from '../lib/startupEvent.js';
import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import { notificationStore } from './store.js';

/**
 * At start (local runner): the local queue keeps nothing across a restart, so notifications whose
 * Telegram delivery is still Pending are enqueued again; the notifier sends only Pending ones, so
 * a message that was in fact delivered meanwhile is not posted twice. Only those created before
 * this start began: one created since has its message.
 */
export const handler = async (event?: StartupEvent): Promise<{ requeued: number }> => {
  const created_at = createdBeforeStart(event);
  const pending = await notificationStore().list({
    page: 1,
    page_size: 0,
    sort: [],
    keywordField: [],
    filters: {
      created_at,
      status_tg: { kind: 'enum', values: [NotifyStatus.values.Pending] },
    },
  });
  const messages = pending.result.map((n): NotifyMessage => ({ kind: 'tg_notification', notification_id: n.id }));
  if (messages.length) {
    await sendToQueue('notify', messages);
    logger.info('telegram deliveries enqueued again at start', { count: messages.length });
  }
  return { requeued: messages.length };
};
