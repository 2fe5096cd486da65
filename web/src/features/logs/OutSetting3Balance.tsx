import type { BalanceStatRow, OutSetting3StatusResult } from '@shared/schemas/checkResults';
import type { ReactNode } from 'react';
import { orEmpty } from '@/app/format';
import { Facts } from '@/components/display/Facts';
import { useT } from '@/i18n';
import { type SimpleColumn, SimpleTable } from './SimpleTable';

const amount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const money = (n: number | null | undefined) => (typeof n === 'number' ? amount.format(n) : orEmpty(n));

const columns: SimpleColumn<BalanceStatRow>[] = [
  { label: 'RID', cell: (r) => orEmpty(r.rid) },
  { label: 'Number', cell: (r) => orEmpty(r.number) },
  { label: 'Big', align: 'number', cell: (r) => money(r.big) },
  { label: 'Small', align: 'number', cell: (r) => money(r.small) },
  { label: 'To Out', align: 'number', cell: (r) => money(r.to_out) },
];

/** The out-setting-3 balance dialog: the balance per number, their totals and what is left. */
export function OutSetting3Balance({
  log,
}: {
  log: Pick<OutSetting3StatusResult, 'balance_stat' | 'balance_total' | 'balance_left' | 'fixed_bets'>;
}): ReactNode {
  const t = useT();
  // [big total, small total, to-out total, balance left]
  const [big, small, toOut, left] = log.balance_total ?? [];
  return (
    <>
      <Facts
        items={[
          { label: t('Fixed Bets'), value: orEmpty(log.fixed_bets) },
          { label: t('Balance Left'), value: money(left ?? log.balance_left) },
        ]}
      />
      <SimpleTable
        label="Balance Stat"
        columns={columns}
        rows={log.balance_stat ?? []}
        rowKey={(r, i) => `${i}-${r.rid}`}
        footer={[t('Total'), '', money(big), money(small), money(toOut)]}
      />
    </>
  );
}
