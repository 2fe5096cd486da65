import { makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import { type ReactNode, useState } from 'react';
import { ResourceTable } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { useT } from '@/i18n';
import { bankNotificationsResource } from './bankNotificationsResource';
import { historyResource } from './historyResource';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minHeight: 0, flexGrow: 1 },
});

type TabName = 'notifications' | 'history';

/**
 * '/notifications/notifications-bank': the Notifications Bank table and, on a second tab, the
 * Notifications Bank History table (every attempt of every notification). `?account_id=` scopes the first.
 */
export default function BankNotificationsPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [tab, setTab] = useState<TabName>('notifications');
  const { baseFilters, toolbar } = useScopeFilters([{ field: 'account_id', label: 'Account #{id}' }]);
  return (
    <div className={styles.root}>
      <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabName)}>
        <Tab value="notifications">{t('Notifications Bank')}</Tab>
        <Tab value="history">{t('Notifications Bank History')}</Tab>
      </TabList>
      {tab === 'notifications' ? (
        <ResourceTable resource={bankNotificationsResource} baseFilters={baseFilters} toolbar={toolbar} />
      ) : (
        <ResourceTable resource={historyResource} />
      )}
    </div>
  );
}
