import type { z } from 'zod';
import type { BankWebhookBody } from './schemas/bankWebhook.js';

// The bank notification examples the Help page shows and the API document carries: one source, so
// the document's schema test proves the Help page's examples are bodies the webhook accepts.

type Example = z.input<typeof BankWebhookBody>;

export const statementExample = {
  bank: 1,
  type: 1,
  content: {
    bank: 1,
    account: '02730102745521001',
    sender: 'U AUNG KYAW',
    remark: 'Deposit 88213',
    send_date: '2026-11-22',
    send_time: '',
    amount: '150000.00',
  },
} satisfies Example;

export const balanceExample = {
  bank: 2,
  type: 2,
  content: {
    bank: '2',
    account: '0041203010008871',
    pre_bal: '2500000.00',
    cur_bal: '2650000.00',
    amount: '150000.00',
  },
} satisfies Example;
