import { makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { BookQuestionMarkRegular, BuildingBankRegular, ServerRegular } from '@fluentui/react-icons';
import { type ReactNode, useState } from 'react';
import { PageHeader, Panel } from '@/app/PageHeader';
import { useT } from '@/i18n';
import { BankNotificationHelp } from './BankNotificationHelp';
import { SystemHelp } from './SystemHelp';

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalL },
  empty: { color: tokens.colorNeutralForeground3, padding: `${tokens.spacingVerticalXXL} 0` },
});

const tabs = [
  { value: 'system', label: 'System', icon: <ServerRegular /> },
  { value: 'bank', label: 'Bank Notification', icon: <BuildingBankRegular /> },
  { value: 'qa', label: 'Q&A', icon: <BookQuestionMarkRegular /> },
] as const;
type HelpTab = (typeof tabs)[number]['value'];

export default function HelpPage(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const [tab, setTab] = useState<HelpTab>('system');
  return (
    <>
      <PageHeader title={t('Help')} />
      <Panel>
        <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as HelpTab)}>
          {tabs.map((x) => (
            <Tab key={x.value} value={x.value} icon={x.icon}>
              {t(x.label)}
            </Tab>
          ))}
        </TabList>
        <div role="tabpanel" aria-label={t(tabs.find((x) => x.value === tab)?.label ?? '')}>
          {tab === 'system' ? <SystemHelp /> : null}
          {tab === 'bank' ? <BankNotificationHelp /> : null}
          {tab === 'qa' ? <Text className={styles.empty}>{t('Questions and answers will be added here.')}</Text> : null}
        </div>
      </Panel>
    </>
  );
}
