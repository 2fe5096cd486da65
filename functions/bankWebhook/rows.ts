import { declaredRow } from '../../shared/listFields.js';
import { type BankNotification, bankNotificationListFields } from '../../shared/schemas/bank.js';
import type { StoredBankNotification } from '../bank/store.js';

/** A stored bank notification in the spec's shape: its declared fields, account {bank_name, user}, sub {no}. */
export function toBankNotificationRow(n: StoredBankNotification): BankNotification {
  return {
    ...declaredRow(bankNotificationListFields, n),
    account: { bank_name: n.bank_name, user: n.account_user },
    sub: n.sub_no === null ? null : { no: n.sub_no },
  };
}
