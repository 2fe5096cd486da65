import type { StoredBankAccount, WebhookStateRecord } from '../bank/store.js';

/** A console notification (functions/notifications createNotification's input). */
export interface PausedNotice {
  category: 3;
  title: string;
  caption: string;
  content: string;
  link: string;
}

/** What tells the operators that an account's webhook was paused (a notification, and its chat message when on). */
export function pausedNotice(
  account: Pick<StoredBankAccount, 'id' | 'user' | 'webhook'>,
  state: WebhookStateRecord,
): PausedNotice {
  return {
    category: 3,
    title: 'Bank webhook paused',
    caption: `Account ${account.user}`,
    content:
      `The webhook of bank account ${account.user} failed ${state.consecutive_failures} times in a row since ` +
      `${new Date(state.failing_since ?? Date.now()).toISOString()}. Deliveries are paused (Channel Closed) ` +
      'until an operator resumes the webhook (POST /bank/bank-account/{id}/webhook-resume), then replays the failed ones.',
    link: `/bank/account?id=${account.id}`,
  };
}
