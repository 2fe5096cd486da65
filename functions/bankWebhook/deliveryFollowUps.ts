import { type BankDeliveryMessage, sendDeliveries } from '../bank/deliveryMessages.js';
import type { DayFigures, StoredHistory } from '../bank/entities.js';
import { bankStore } from '../bank/store.js';
import type { FollowUp } from '../lib/db/entity.js';
import { applyNow, defineFollowUp } from '../lib/db/outbox.js';
import { claimIfFree, findUniqueClaim } from '../lib/db/unique.js';
import { logger } from '../lib/logger.js';

// What settling a webhook attempt sets in motion (deliver.ts), recorded with the channel's new
// status in the notification's one conditional write (bank/channelStatus.ts settleChannel), so a
// delivery that dies after it leaves them to the follow-up sweeper (lib/db/outbox.ts). Each is
// idempotent: applied again, it changes nothing more.

/** The attempt's history row, under the id the attempt chose before it sent. */
export const attemptHistory = defineFollowUp(
  'bank.delivery_history',
  async ({ id, row }: { id: number; row: Omit<StoredHistory, 'id' | 'updated_at'> }) => {
    await bankStore().addHistory(row, id);
  },
);

/**
 * The statement's delivery claim: kept for good once delivered, given back when nothing was (another
 * notification of the statement may deliver it). A second try finds it so and does nothing.
 */
export const endStatementClaim = defineFollowUp(
  'bank.delivery_claim',
  async ({
    statement_id,
    notification_id,
    delivered,
  }: {
    statement_id: number;
    notification_id: number;
    delivered: boolean;
  }) => {
    if (delivered) await bankStore().completeDelivery(statement_id, notification_id);
    else await bankStore().releaseDelivery(statement_id, notification_id);
  },
);

/**
 * The next attempt of a webhook's chain, on the notify queue after its delay: recorded by the
 * settling of the attempt that failed (which moved the chain to it, `webhook_attempt`), so the chain
 * goes on once the attempt is settled and only then. Sent again (its writer died between the send
 * and the clear), the copy finds its attempt settled or settles nothing (settleChannel's guard).
 */
export const retryDelivery = defineFollowUp(
  'bank.delivery_retry',
  ({ message, delay_seconds }: { message: BankDeliveryMessage; delay_seconds: number }) =>
    sendDeliveries([message], delay_seconds),
);

/** A webhook that answered 2xx again: its failures start from 0 (a set: applied twice, the same). */
export const webhookHealthy = defineFollowUp('bank.webhook_healthy', ({ account_id }: { account_id: number }) =>
  bankStore().recordSuccess(account_id),
);

/**
 * A final outcome counted in the account's day figures (the delivery dashboard). An ADD: applied
 * again after its writer died between the count and the clear, it counts twice (a dashboard figure,
 * rebuilt from the rows by the rollups' repair).
 */
export const countDelivery = defineFollowUp(
  'bank.delivery_count',
  ({ day, account_id, figures }: { day: string; account_id: number; figures: DayFigures }) =>
    bankStore().addDayFigures(day, account_id, figures),
);

/**
 * The account's webhook paused at `paused_at` (the attempt that reached the pause rule). Set only if
 * not paused yet: applied again, or after another delivery paused it meanwhile, the first pause stays.
 */
export const pauseWebhook = defineFollowUp(
  'bank.webhook_pause',
  ({ account_id, paused_at }: { account_id: number; paused_at: number }) =>
    bankStore().setPaused(account_id, paused_at),
);

/**
 * The operators told that the webhook was paused (`notice`: the console notification's own
 * follow-up, under an id the attempt allocated, handed by the notifier so this feature does not
 * import the notifications). Once per pause, whatever runs it again and whichever delivery records
 * it: keyed by the pause actually stored, not by the instant the recording delivery computed (two
 * deliveries failing at once both reach the pause rule; the first `paused_at` stays, and the other's
 * notice tells of that pause instead of being dropped). The claim
 * `bank_webhook_pause#notice#<account>@<stored paused_at>` is held by this notice's id: a second try
 * of the same notice passes it, another notice of the same pause does not. Not paused any more (an
 * operator resumed it meanwhile): nothing to tell. `paused_at` (the recording delivery's instant) is
 * only logged.
 */
export const pausedNoticeOnce = defineFollowUp(
  'bank.webhook_paused_notice',
  async ({
    account_id,
    paused_at,
    notice_id,
    notice,
  }: {
    account_id: number;
    paused_at: number;
    notice_id: number;
    notice: FollowUp;
  }) => {
    const stored = (await bankStore().webhookState(account_id)).paused_at;
    if (stored === null) {
      logger.info('paused-webhook notice not sent: resumed meanwhile', { account_id, paused_at });
      return;
    }
    if (!(await claimIfFree(...noticeKey(account_id, stored), notice_id))) return;
    await applyNow([notice]);
  },
);

const noticeKey = (accountId: number, pausedAt: number) =>
  ['bank_webhook_pause', 'notice', `${accountId}@${pausedAt}`] as const;

/** Whether the notice of the webhook's pause at `pausedAt` was claimed (written, or being written) already. */
export async function pauseNoticed(accountId: number, pausedAt: number): Promise<boolean> {
  return (await findUniqueClaim(...noticeKey(accountId, pausedAt))) !== undefined;
}
