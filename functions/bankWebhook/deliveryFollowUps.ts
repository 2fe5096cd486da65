import type { DayFigures, StoredHistory } from '../bank/entities.js';
import { bankStore } from '../bank/store.js';
import { defineFollowUp } from '../lib/db/outbox.js';

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
