import { PushChannel, PushStatus } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { firstDeliveries, sendDeliveries } from '../bank/deliveryMessages.js';
import { bankStore, type StoredBankNotification } from '../bank/store.js';
import { logger } from '../lib/logger.js';
import { createdBeforeStart, type StartupEvent } from '../lib/startupEvent.js';

/**
 * At start (local runner): the local queue keeps nothing across a restart, so bank notifications
 * whose webhook or chat delivery is still Pending are enqueued again (from attempt 1). The push
 * status Pending (key-served) finds the channels not pushed yet; of those, only the ones whose
 * attempts are still under way (notify Pending) go again, each from the attempt its chain is at
 * (`webhook_attempt`, `tg_attempt`): a Failed one waits for a Replay. A channel
 * that answered 2xx meanwhile is never sent again (the delivery skips Pushed). Only notifications
 * created before this start began: one created since has its messages.
 */
export const handler = async (event?: StartupEvent): Promise<{ requeued: number }> => {
  const created_at = createdBeforeStart(event);
  const pending = PushStatus.values.Pending;
  const seen = new Map<number, StoredBankNotification>();
  for (const field of ['status_webhook', 'status_tg'] as const) {
    const out = await bankStore().listNotifications({
      ...emptyListQuery({ page_size: 0 }),
      filters: {
        created_at,
        [field]: { kind: 'enum', values: [pending] },
      },
    });
    for (const n of out.result) seen.set(n.id, n);
  }
  // Each channel's chain goes on from the attempt it is at (an attempt it has passed would be dropped).
  const messages = [...seen.values()].flatMap((n) =>
    firstDeliveries(n).map((m) => {
      const at = m.channel === PushChannel.values.WebHook ? n.webhook_attempt : n.tg_attempt;
      return at ? { ...m, attempt: at } : m;
    }),
  );
  if (messages.length) {
    await sendDeliveries(messages);
    logger.info('bank deliveries enqueued again at start', { count: messages.length });
  }
  return { requeued: messages.length };
};
