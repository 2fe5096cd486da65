import { NotifyStatus, PushStatus } from '../../shared/enums.js';
import type { ReplayBody, ReplayOutcome } from '../../shared/schemas/bankWebhook.js';
import { AttemptSettledError, settleChannel } from '../bank/channelStatus.js';
import { sendDeliveries } from '../bank/deliveryMessages.js';
import type { BankStore } from '../bank/store.js';
import { attemptGapMs } from './retryPolicy.js';

const S = NotifyStatus.values;

/**
 * POST /notifications-bank/replay: sends chosen notifications (or every one whose webhook ended
 * Failed) to the account's webhook again, from attempt 1, with new rows in the history; the webhook
 * is Pending again (notify and push status) until the attempts settle. A notification whose
 * receiver already answered 2xx (pushed) is skipped: it is never delivered twice. So is one whose
 * attempts are still under way (Pending, written within attemptGapMs); a Pending one left longer
 * lost its message, and a Replay is how it goes again.
 */
export async function replayNotifications(store: BankStore, body: ReplayBody): Promise<ReplayOutcome> {
  const chosen = body.ids?.length
    ? await store.getNotifications(body.ids)
    : await store.failedNotifications(body.account_id);
  const skipped: ReplayOutcome['skipped'] = [];
  for (const id of body.ids ?? [])
    if (!chosen.some((n) => n.id === id)) skipped.push({ id, reason: 'No such notification' });
  const queued: number[] = [];
  const now = Date.now();
  for (const n of chosen) {
    if (n.status_webhook === PushStatus.values.Pushed) {
      skipped.push({ id: n.id, reason: 'Already delivered to the webhook' });
      continue;
    }
    if (n.notify_webhook === S.Duplication) {
      skipped.push({ id: n.id, reason: 'The same statement was delivered by another notification' });
      continue;
    }
    // A second chain of attempts beside a live one could deliver it twice: wait for it to settle.
    if (n.notify_webhook === S.Pending && (n.updated_at ?? n.created_at) > now - attemptGapMs()) {
      skipped.push({ id: n.id, reason: 'Still being delivered; replay it once its attempts have ended' });
      continue;
    }
    try {
      // A new chain from attempt 1: its first message may run, any copy of the old chain's may not.
      await settleChannel(store, n, 'webhook', S.Pending, null, [], { expected: n.webhook_attempt, next: 1 });
    } catch (error) {
      if (!(error instanceof AttemptSettledError)) throw error;
      skipped.push({ id: n.id, reason: 'Still being delivered; replay it once its attempts have ended' });
      continue;
    }
    queued.push(n.id);
  }
  await sendDeliveries(
    queued.map((id) => ({ kind: 'bank_notification', notification_id: id, channel: 1, attempt: 1, replay: true })),
  );
  return { queued, skipped };
}
