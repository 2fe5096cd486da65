import { Button, makeStyles, Subtitle2, Text, Tooltip, tokens } from '@fluentui/react-components';
import { ArrowClockwise16Regular } from '@fluentui/react-icons';
import type { Filter } from '@shared/listQuery';
import type { KbzSubDetail, SubAccount } from '@shared/schemas/bank';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { queryKeys } from '@/api/queryKeys';
import { EMPTY_TEXT } from '@/app/constants';
import { formatDateTime } from '@/app/format';
import { Facts } from '@/components/display/Facts';
import { ResourceTable } from '@/components/table';
import { useT } from '@/i18n';
import { SubAccountStatusBadge } from './BankBadges';
import { BANK_BALANCE_STATS, BANK_STATEMENTS, refreshSubStatements } from './bankApi';
import { formatAmount } from './format';
import { subStatementsResource } from './statementsResource';
import { SubAccountSwitchButton } from './SubAccountSwitchButton';
import { subDetailFields } from './subDetailFields';
import { WriteOnly } from '@/app/WriteOnly';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  no: { fontFamily: tokens.fontFamilyMonospace },
  grow: { flexGrow: 1 },
  title: { display: 'block', marginBottom: tokens.spacingVerticalS },
  balances: { display: 'flex', flexDirection: 'column' },
});

/** A detail field as a person reads it: amounts with separators, KBZ's balances one per line. */
function detailValue(value: unknown, key: string): ReactNode {
  if (value === null || value === undefined || value === '') return EMPTY_TEXT;
  if (Array.isArray(value)) {
    if (!value.length) return EMPTY_TEXT;
    return (
      <span style={{ display: 'flex', flexDirection: 'column' }}>
        {(value as KbzSubDetail['balances']).map((b) => (
          <span key={b.type}>
            {b.type}: {formatAmount(b.amount)} {b.currency}
          </span>
        ))}
      </span>
    );
  }
  if (key === 'interest_rate') return `${value}%`;
  return /balance|amount/.test(key) ? formatAmount(value as number | string) : String(value);
}

/** One sub-account under its account: its state, the bank's detail fields (Extra Information) and its statements. */
export function SubAccountDetail({ sub, onChanged }: { sub: SubAccount; onChanged(): unknown }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  const baseFilters = useMemo<Record<string, Filter>>(
    () => ({ sub_account_id: { kind: 'number', op: '=', value: sub.id } }),
    [sub.id],
  );
  const fields = subDetailFields[sub.bank_name] ?? [];
  const detail = (sub.detail ?? {}) as Record<string, unknown>;

  const refresh = async () => {
    setRefreshing(true);
    try {
      await refreshSubStatements(sub);
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.all(BANK_STATEMENTS) }),
        client.invalidateQueries({ queryKey: queryKeys.all(BANK_BALANCE_STATS) }),
        onChanged(),
      ]);
    } catch {
      // 'Refresh failed.' has been shown.
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <div className={styles.root}>
      <div className={styles.head}>
        <Text size={500} weight="semibold" className={styles.no}>
          {sub.no}
        </Text>
        <SubAccountStatusBadge status={sub.status} />
        <span className={styles.grow} />
        <WriteOnly>
          <Tooltip content={t('Refresh statements')} relationship="label">
            <Button icon={<ArrowClockwise16Regular />} disabled={refreshing} onClick={() => void refresh()} />
          </Tooltip>
          <SubAccountSwitchButton sub={sub} size="medium" onDone={onChanged} />
        </WriteOnly>
      </div>
      <Facts
        items={[
          { label: t('Available Balance'), value: formatAmount(sub.available_balance) },
          { label: t('Last Refresh'), value: formatDateTime(sub.last_refresh) },
          { label: t('Created At'), value: formatDateTime(sub.created_at) },
        ]}
      />
      <section aria-label={t('Extra Information')}>
        <Subtitle2 as="h3" className={styles.title}>
          {t('Extra Information')}
        </Subtitle2>
        <Facts items={fields.map(([key, label]) => ({ label: t(label), value: detailValue(detail[key], key) }))} />
      </section>
      <ResourceTable resource={subStatementsResource} baseFilters={baseFilters} />
    </div>
  );
}
