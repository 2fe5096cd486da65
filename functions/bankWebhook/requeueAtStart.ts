import { NotifyStatus } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { logger } from '../lib/logger.js';
import { firstDeliveries, sendDeliveries } from './enqueueDelivery.js';
import { deliveryStore } from './store.js';

/** How far back a start looks for bank deliveries still Pending. */
const LOOK_BACK_MS = 24 * 3600 * 1000;

/**
 * At start (local runner): the local queue keeps nothing across a restart, so bank notifications
 * whose webhook or chat delivery is still Pending are enqueued again (from attempt 1). A channel
 * that answered 2xx meanwhile is never sent again (the delivery skips Success).
 */
export const handler = async (): Promise<{ requeued: number }> => {
  const since = Date.now() - LOOK_BACK_MS;
  const pending = NotifyStatus.values.Pending;
  const seen = new Map<number, { id: number; status_webhook: number; status_tg: number }>();
  for (const field of ['status_webhook', 'status_tg'] as const) {
    const out = await deliveryStore().listNotifications({
      ...emptyListQuery({ page_size: 0 }),
      filters: { created_at: { kind: 'range', start: since }, [field]: { kind: 'enum', values: [pending] } },
    });
    for (const n of out.result) seen.set(n.id, n);
  }
  const messages = [...seen.values()].flatMap((n) => firstDeliveries(n));
  if (messages.length) {
    await sendDeliveries(messages);
    logger.info('bank deliveries enqueued again at start', { count: messages.length });
  }
  return { requeued: messages.length };
};
