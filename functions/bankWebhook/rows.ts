import type { BankNotification } from '../../shared/schemas/bank.js';
import type { StoredBankNotification } from '../bank/store.js';

/** A stored bank notification in the spec's shape: account {bank_name, user}, sub {no}. */
export function toBankNotificationRow(n: StoredBankNotification): BankNotification {
  const { bank_name, account_user, sub_no, ...rest } = n;
  return { ...rest, account: { bank_name, user: account_user }, sub: sub_no === null ? null : { no: sub_no } };
}
