import { Bank } from '../../../shared/enums.js';
import type { BankNotificationContext } from '../../../shared/schemas/bank.js';
import type { Line } from './formatMessage.js';

/** The lines of a bank notification on the bank chat; user text stays text (escaped by the sender). */
export function bankTelegramLines(context: BankNotificationContext): Line[] {
  const bank = context.bank === Bank.values.KBZ ? 'KBZ' : 'AYA';
  switch (context.kind) {
    case 'statement':
      return [
        [{ text: `${bank} statement`, bold: true }, ` ${context.account}`],
        [`Amount: ${context.inflow ? '+' : '-'}${context.amount}`],
        ...(context.sender ? [[`Sender: ${context.sender}`]] : []),
        [`Remark: ${context.remark}`],
        [`Time: ${context.send_date}${context.send_time ? ` ${context.send_time}` : ''}`],
      ];
    case 'balance':
      return [
        [{ text: `${bank} balance`, bold: true }, ` ${context.account}`],
        [`${context.pre_bal} → ${context.cur_bal} (${context.amount})`],
        ...(context.reconciled ? [] : [[`Does not match the statements by ${context.difference}`]]),
      ];
    case 'stale':
      return [[{ text: `${bank} account ${context.user}`, bold: true }, ' has not been polled successfully lately']];
    case 'recovered':
      return [[{ text: `${bank} account ${context.user}`, bold: true }, ' is polled again']];
  }
}
