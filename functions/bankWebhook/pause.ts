import type { WebhookState } from '../../shared/schemas/bankWebhook.js';
import type { StoredBankAccount } from '../bank/store.js';
import { createNotification } from '../notifications/service.js';

/** Tells the operators that an account's webhook was paused (a notification, and its chat message when on). */
export async function notifyPaused(
  account: Pick<StoredBankAccount, 'id' | 'user' | 'webhook'>,
  state: WebhookState,
): Promise<void> {
  await createNotification({
    category: 3,
    title: 'Bank webhook paused',
    caption: `Account ${account.user}`,
    content:
      `The webhook of bank account ${account.user} failed ${state.consecutive_failures} times in a row since ` +
      `${new Date(state.failing_since ?? Date.now()).toISOString()}. Deliveries are paused (Channel Closed) ` +
      'until an operator resumes the webhook (POST /bank/bank-account/{id}/webhook-resume), then replays the failed ones.',
    link: `/bank/account?id=${account.id}`,
  });
}
