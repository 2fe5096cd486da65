import { NotifyStatus } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { sendToQueue } from '../lib/queue/sendToQueue.js';
import { type StartupEvent, startBegan } from '../lib/startupEvent.js';
import type { NotifyMessage } from '../../shared/schemas/notifyMessage.js';
import { notificationStore } from './store.js';

/** How far back a start looks for deliveries still Pending: older ones are stale news. */
const LOOK_BACK_MS = 24 * 3600 * 1000;

/**
 * At start (local runner): the local queue keeps nothing across a restart, so notifications whose
 * Telegram delivery is still Pending are enqueued again; the notifier sends only Pending ones, so
 * a message that was in fact delivered meanwhile is not posted twice. Only those created before
 * this start began: one created since has its message.
 */
export const handler = async (event?: StartupEvent): Promise<{ requeued: number }> => {
  const began = startBegan(event);
  const since = began - LOOK_BACK_MS;
  const pending = await notificationStore().list({
    page: 1,
    page_size: 0,
    sort: [],
    keywordField: [],
    filters: {
      created_at: { kind: 'range', start: since, end: began - 1 },
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
