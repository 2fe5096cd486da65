import { makeStyles, Skeleton, SkeletonItem, Subtitle2, tokens } from '@fluentui/react-components';
import { Bank } from '@shared/enums';
import type { BankAccountDetail } from '@shared/schemas/bank';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { formatDateTime, orEmpty } from '@/app/format';
import { LoadFailedPanel, PageHeader, Panel } from '@/app/PageHeader';
import { WritableSection, WriteOnly } from '@/app/WriteOnly';
import { Facts } from '@/components/display/Facts';
import { RefreshButton } from '@/components/display/RefreshButton';
import { useT } from '@/i18n';
import { AccountSwitchButton } from './AccountSwitchButton';
import { BankAccountStatusBadge, StaleBadge } from './BankBadges';
import { bankAccountQuery, refreshBankLists, updateBankAccount } from './bankApi';
import { MonitorIntervalEditor } from './MonitorIntervalEditor';
import { MonitorRangeEditor } from './MonitorRangeEditor';
import { NotificationSection } from './NotificationSection';
import { SubAccountTabs } from './SubAccountTabs';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  actions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  sections: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1.4fr)',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    '@media (max-width: 1100px)': { gridTemplateColumns: '1fr' },
  },
  monitor: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  title: { display: 'block', marginBottom: tokens.spacingVerticalM },
  stale: { display: 'inline-flex', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
});

function Header({ account }: { account: BankAccountDetail }): ReactNode {
  const t = useT();
  return (
    <Panel>
      <Facts
        items={[
          { label: t('Bank'), value: t(Bank.label(account.bank_name)) },
          { label: t('User'), value: account.user },
          {
            label: t('Status'),
            value: (
              <span style={{ display: 'inline-flex', gap: 6 }}>
                <BankAccountStatusBadge status={account.status} />
                <StaleBadge stale={account.stale} />
              </span>
            ),
          },
          { label: t('Last Refresh'), value: formatDateTime(account.last_refresh) },
          { label: t('Holder'), value: orEmpty(account.holder) },
          { label: t('Mobile'), value: orEmpty(account.mobile) },
          { label: t('Created At'), value: formatDateTime(account.created_at) },
          { label: t('Remark'), value: orEmpty(account.remark) },
          ...(account.last_error ? [{ label: t('Last Error'), value: account.last_error, wide: true }] : []),
        ]}
      />
    </Panel>
  );
}

function MonitorSection({ account, onChanged }: { account: BankAccountDetail; onChanged(): unknown }): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <Panel className={styles.monitor}>
      <Subtitle2 as="h2">{t('Monitor')}</Subtitle2>
      <MonitorIntervalEditor
        // A saved value from elsewhere (another tab, a reload) starts the field again.
        key={`interval-${account.monitor_interval}`}
        value={account.monitor_interval}
        onSave={async (interval) => {
          await updateBankAccount(account, 'interval', interval);
          await onChanged();
        }}
      />
      <MonitorRangeEditor
        key={`range-${JSON.stringify(account.monitor_range)}`}
        value={account.monitor_range}
        timeZone={account.time_zone}
        onSave={async (range) => {
          await updateBankAccount(account, 'range', range);
          await onChanged();
        }}
      />
    </Panel>
  );
}

/** '/bank/accounts/{accountID}': the header, Notification and Monitor sections, and a tab per sub-account. */
export default function BankAccountDetailPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  const id = Number(useParams().accountID);
  const { data: account, isPending, isError, isFetching, refetch } = useQuery(bankAccountQuery(id));
  // The detail's key is under the accounts' root: one invalidation reloads it with the lists.
  const changed = () => refreshBankLists(client);

  return (
    <div className={styles.page}>
      <PageHeader
        title={account ? `${t(Bank.label(account.bank_name))} · ${account.user}` : `${t('Bank Account')} #${id}`}
        subtitle={account ? `${t('Bank Account')} #${account.id}` : undefined}
        actions={
          <div className={styles.actions}>
            {account ? (
              <WriteOnly>
                <AccountSwitchButton account={account} onDone={changed} />
              </WriteOnly>
            ) : null}
            <RefreshButton onRefresh={refetch} busy={isFetching} />
          </div>
        }
      />
      {account ? (
        <>
          <Header account={account} />
          <div className={styles.sections}>
            <WritableSection>
              <NotificationSection account={account} onChanged={changed} />
            </WritableSection>
            <WritableSection>
              <MonitorSection account={account} onChanged={changed} />
            </WritableSection>
          </div>
          <Panel>
            <Subtitle2 as="h2" className={styles.title}>
              {t('Sub accounts')}
            </Subtitle2>
            <SubAccountTabs account={account} onChanged={changed} />
          </Panel>
        </>
      ) : isPending ? (
        <Panel>
          <Skeleton aria-label={t('Loading')}>
            <SkeletonItem style={{ width: '40%', marginBottom: 12 }} />
            <SkeletonItem style={{ width: '70%' }} />
          </Skeleton>
        </Panel>
      ) : isError ? (
        <LoadFailedPanel message={t('Loading account failed')} />
      ) : null}
    </div>
  );
}
