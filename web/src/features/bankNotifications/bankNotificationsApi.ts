import type { ReplayBody, ReplayOutcome } from '@shared/schemas/bankWebhook';
import { request } from '@/api/request';
import { toast } from '@/app/toast';
import { t } from '@/i18n';

export const BANK_NOTIFICATIONS = 'notifications-bank';
export const BANK_NOTIFICATION_HISTORY = 'notifications-bank-history';

/**
 * Sends chosen notifications (or every Failed one) again from attempt 1. The tip says how many went
 * out and names the ones the server left alone (already delivered, or a Duplication): a receiver
 * that answered 2xx never gets a notification twice, so "nothing happened" must not look like a bug.
 */
export async function replayBankNotifications(body: ReplayBody): Promise<ReplayOutcome> {
  const outcome = await request<ReplayOutcome>({
    method: 'POST',
    url: '/notifications-bank/replay',
    data: body,
    failureTip: 'Replay failed.',
  });
  if (outcome.queued.length > 0) {
    toast.success(t('Replay success.'), t('{count} notification(s) sent again.', { count: outcome.queued.length }));
  }
  if (outcome.skipped.length > 0) {
    toast.warning(
      t('{count} notification(s) not replayed.', { count: outcome.skipped.length }),
      outcome.skipped.map((s) => `#${s.id}: ${s.reason}`).join('\n'),
    );
  }
  if (outcome.queued.length === 0 && outcome.skipped.length === 0) toast.info(t('Nothing to replay.'));
  return outcome;
}
