import { makeStyles, Text, tokens } from '@fluentui/react-components';
import type { OutSetting3Result, OutSettingMsg } from '@shared/schemas/checkResults';
import type { ReactNode } from 'react';
import { orEmpty } from '@/app/format';
import { Facts } from '@/components/display/Facts';
import { useT } from '@/i18n';
import { type SimpleColumn, SimpleTable } from './SimpleTable';

const amount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const money = (n: number | null | undefined) => (typeof n === 'number' ? amount.format(n) : orEmpty(n));

const columns: SimpleColumn<OutSettingMsg>[] = [
  { label: 'Number', cell: (m) => orEmpty(m.Number) },
  { label: 'Type', cell: (m) => orEmpty(m.Type) },
  { label: 'BigOutLimit', align: 'number', cell: (m) => money(m.BigOutLimit) },
  { label: 'BigToOut', align: 'number', cell: (m) => money(m.BigToOut) },
  { label: 'SmallOutLimit', align: 'number', cell: (m) => money(m.SmallOutLimit) },
  { label: 'SmallToOut', align: 'number', cell: (m) => money(m.SmallToOut) },
];

const useStyles = makeStyles({
  heading: { fontWeight: tokens.fontWeightSemibold },
});

/** The out-setting-3 detail dialog: what the site answered (date, time, per-number limits) and its message. */
export function OutSetting3Detail({ result }: { result: OutSetting3Result['result'] | null | undefined }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const data = result?.data ?? null;
  return (
    <>
      <Facts
        items={[
          { label: t('TransactDate'), value: orEmpty(data?.TransactDate) },
          { label: t('Time'), value: orEmpty(data?.time) },
          { label: t('Message'), value: orEmpty(result?.message), wide: true },
        ]}
      />
      <Text className={styles.heading}>{t('Msg')}</Text>
      <SimpleTable
        label="Msg"
        columns={columns}
        rows={data?.Msg ?? []}
        rowKey={(m, i) => `${i}-${m.Number}-${m.Type}`}
      />
    </>
  );
}
