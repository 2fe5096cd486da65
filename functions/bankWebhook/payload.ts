import { Bank } from '../../shared/enums.js';
import type { BankNotificationContext } from '../../shared/schemas/bank.js';
import { type OutboundBankWebhookBody, WebhookType } from '../../shared/schemas/bankWebhook.js';

export type WebhookPayload = OutboundBankWebhookBody;

/** Spec section 1: every balance field is a numeric string, the bank included. */
const BANK_TEXT = { 1: '1', 2: '2' } as const;

/**
 * The body POSTed for a bank notification, in the spec's shape (section 1). A statement's amount
 * is signed (negative for money out); sender is KBZ's only, send_time AYA's only; a balance's
 * content is numeric strings only (bank '1' / '2'), the body's own bank a number. Undefined for
 * the monitor's own notices (stale / recovered), which go to the chat only.
 */
export function webhookPayload(context: BankNotificationContext): WebhookPayload | undefined {
  if (context.kind === 'statement') {
    const kbz = context.bank === Bank.values.KBZ;
    return {
      bank: context.bank,
      type: WebhookType.Statement,
      content: {
        bank: context.bank,
        account: context.account,
        sender: kbz ? context.sender : '',
        remark: context.remark,
        send_date: context.send_date,
        send_time: kbz ? '' : context.send_time,
        amount: context.inflow ? context.amount : `-${context.amount}`,
      },
    };
  }
  if (context.kind === 'balance') {
    return {
      bank: context.bank,
      type: WebhookType.Balance,
      content: {
        bank: BANK_TEXT[context.bank],
        account: context.account,
        pre_bal: context.pre_bal,
        cur_bal: context.cur_bal,
        amount: context.amount,
      },
    };
  }
  return undefined;
}
