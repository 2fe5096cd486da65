import { BankNotificationCategory, NotifyStatus } from '../../shared/enums.js';
import type { BankNotificationContext, NotifyStatusValue } from '../../shared/schemas/bank.js';
import { newChannelFields, overallNotifyStatus } from './channelStatus.js';
import type { BankStatementLine } from './drivers/bankDriver.js';
import type { StoredBankAccount, StoredBankNotification } from './store.js';

/**
 * Where a new bank notification is to go, as notify statuses: each channel Pending (0) when it is
 * set up, else No Need (-1); its push status follows (Pending, or NoNeed), channelStatus.ts.
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

export const Category = BankNotificationCategory.values;

type NewNotification = Omit<StoredBankNotification, 'id' | 'created_at' | 'updated_at'> & { created_at: number };

/** A bank notification about `business_id`, to the account's channels. */
export function bankNotification(
  account: Pick<StoredBankAccount, 'id' | 'bank_name' | 'user'>,
  targets: NotifyTargets,
  data: {
    category: StoredBankNotification['category'];
    business_id: number;
    sub: { id: number; no: string } | null;
    context: BankNotificationContext;
    created_at: number;
  },
): NewNotification {
  return {
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
  };
}

/** The notification of a statement (stored now, or found stored before). */
export function statementNotification(
  account: Pick<StoredBankAccount, 'id' | 'bank_name' | 'user'>,
  targets: NotifyTargets,
  sub: { id: number; no: string },
  line: BankStatementLine,
  statementId: number,
  now: number,
): NewNotification {
  return bankNotification(account, targets, {
    category: Category.Statement,
    business_id: statementId,
    sub: { id: sub.id, no: sub.no },
    created_at: now,
    context: {
      kind: 'statement',
      bank: account.bank_name,
      account: sub.no,
      sender: line.name,
      remark: line.remark,
      send_date: line.date,
      send_time: line.time,
      amount: line.amount.toFixed(2),
      inflow: line.inflow,
    },
  });
}
