import { BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import type { BankNotificationContext, NotifyStatusValue } from '../../shared/schemas/bank.js';
import { newChannelFields, overallNotifyStatus } from '../bankWebhook/channelStatus.js';
import { enqueueBankDelivery } from '../bankWebhook/enqueueDelivery.js';
import type { BankStore, StoredBankAccount, StoredBankNotification } from './store.js';

/**
 * Where a new bank notification is to go, as notify statuses: each channel Pending (0) when it is
 * set up, else No Need (-1); its push status follows (Pending, or NoNeed), bankWebhook/channelStatus.ts.
 */
export interface NotifyTargets {
  webhook: NotifyStatusValue;
  tg: NotifyStatusValue;
  /** The row's own notify_status (the statement's, the balance stat's, the notification's): Pending when any channel is. */
  row: NotifyStatusValue;
}

export function notifyTargets(account: Pick<StoredBankAccount, 'webhook'>, chatOn: boolean): NotifyTargets {
  const { Pending, NoNeed } = NotifyStatus.values;
  const webhook = account.webhook ? Pending : NoNeed;
  const tg = chatOn ? Pending : NoNeed;
  return { webhook, tg, row: overallNotifyStatus(webhook, tg) };
}

/** Writes one bank notification and queues its deliveries. */
export async function createBankNotification(
  store: BankStore,
  account: Pick<StoredBankAccount, 'id' | 'bank_name' | 'user'>,
  targets: NotifyTargets,
  data: {
    category: StoredBankNotification['category'];
    business_id: number;
    sub: { id: number; no: string } | null;
    context: BankNotificationContext;
    created_at: number;
  },
  /** Allocated beforehand, beside other work (BankStore.newNotificationId); else at the write. */
  id?: number,
): Promise<StoredBankNotification> {
  // Its deliveries (webhook, chat) through the notify queue (functions/bankWebhook), queued as
  // soon as the row is stored, beside its kept counts.
  return store.createNotification(
    {
      business_id: data.business_id,
      account_id: account.id,
      sub_account_id: data.sub?.id ?? null,
      category: data.category,
      ...newChannelFields(targets),
      context: data.context,
      bank_name: account.bank_name,
      account_user: account.user,
      sub_no: data.sub?.no ?? null,
      created_at: data.created_at,
    },
    { id, alongside: enqueueBankDelivery },
  );
}

export const Category = BankNotificationCategory.values;
