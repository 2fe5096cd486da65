import type { BankNotificationContext } from '@shared/schemas/bank';
import { formatDateTime } from '@/app/format';
import { t } from '@/i18n';
import { formatAmount } from '../bank/format';

const signed = (amount: string, inflow: boolean) => `${inflow ? '+' : '-'}${formatAmount(Math.abs(Number(amount)))}`;

/** One line saying what a bank notification is about (the Context column, its export and copy). */
export function contextText(c: BankNotificationContext | null | undefined): string {
  if (!c) return '';
  switch (c.kind) {
    case 'statement':
      return [signed(c.amount, c.inflow), c.sender, c.remark, [c.send_date, c.send_time].filter(Boolean).join(' ')]
        .filter(Boolean)
        .join(' · ');
    case 'balance':
      return [
        `${formatAmount(c.pre_bal)} → ${formatAmount(c.cur_bal)}`,
        c.reconciled ? '' : t('Not reconciled, difference {difference}', { difference: formatAmount(c.difference) }),
      ]
        .filter(Boolean)
        .join(' · ');
    case 'stale':
      return t('{user} not polled since {since}', { user: c.user, since: formatDateTime(c.since) });
    case 'recovered':
      return t('{user} polled again at {at}', { user: c.user, at: formatDateTime(c.recovered_at) });
  }
}
