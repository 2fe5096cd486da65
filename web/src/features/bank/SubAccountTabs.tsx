import { Button, makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { ArrowSync20Regular } from '@fluentui/react-icons';
import { SubAccountStatus } from '@shared/enums';
import type { BankAccountDetail } from '@shared/schemas/bank';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { initBankAccount } from './bankApi';
import { Splitter } from './Splitter';
import { SubAccountDetail } from './SubAccountDetail';
import { WriteOnly } from '@/app/WriteOnly';

/** The sub-account list's width in percent of the section: where it starts, and how far it may be dragged. */
export const SUB_LIST_SPLIT = { initial: 20, min: 10, max: 20 } as const;

const useStyles = makeStyles({
  split: { minHeight: '420px' },
  list: { paddingRight: tokens.spacingHorizontalS },
  tab: { justifyContent: 'flex-start', maxWidth: '100%' },
  tabText: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', minWidth: 0 },
  no: { fontFamily: tokens.fontFamilyMonospace, overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '100%' },
  off: { color: tokens.colorNeutralForeground4, fontSize: tokens.fontSizeBase100 },
  detail: { paddingLeft: tokens.spacingHorizontalL, minWidth: 0 },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: `${tokens.spacingVerticalXXL} 0`,
    color: tokens.colorNeutralForeground3,
  },
});

/**
 * The account's sub-accounts as vertical tabs in a splitter, the selected one's detail beside them.
 * An account without any offers 'Init Account', which reads them from the bank and reloads.
 */
export function SubAccountTabs({
  account,
  onChanged,
}: {
  account: BankAccountDetail;
  onChanged(): unknown;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [selected, setSelected] = useState<number | undefined>();
  const [initing, setIniting] = useState(false);
  const subs = account.subs;

  if (subs.length === 0) {
    const init = async () => {
      setIniting(true);
      try {
        await initBankAccount(account);
      } catch {
        // 'Init failed' has been shown.
      } finally {
        setIniting(false);
        // Reload either way: a failed init may still have changed the account's status.
        await onChanged();
      }
    };
    return (
      <div className={styles.empty}>
        <Text>{t('No Account.')}</Text>
        <WriteOnly>
          <Button appearance="primary" icon={<ArrowSync20Regular />} disabled={initing} onClick={() => void init()}>
            {t('Init Account')}
          </Button>
        </WriteOnly>
      </div>
    );
  }

  const current = subs.find((s) => s.id === selected) ?? subs[0];
  return (
    <Splitter
      className={styles.split}
      {...SUB_LIST_SPLIT}
      label={t('Resize sub-account list')}
      first={
        <TabList
          vertical
          className={styles.list}
          aria-label={t('Sub accounts')}
          selectedValue={current.id}
          onTabSelect={(_, d) => setSelected(d.value as number)}
        >
          {subs.map((s) => (
            <Tab key={s.id} value={s.id} className={styles.tab}>
              <span className={styles.tabText}>
                <span className={styles.no}>{s.no}</span>
                {s.status !== SubAccountStatus.values.Available ? (
                  <span className={styles.off}>{t(SubAccountStatus.label(s.status))}</span>
                ) : null}
              </span>
            </Tab>
          ))}
        </TabList>
      }
      second={
        <div className={styles.detail} role="tabpanel" aria-label={current.no}>
          <SubAccountDetail key={current.id} sub={current} onChanged={onChanged} />
        </div>
      }
    />
  );
}
