import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircle16Filled, DismissCircle16Filled } from '@fluentui/react-icons';
import type { Site } from '@shared/schemas/sites';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { BusyButton } from '@/components/form/BusyButton';
import { CopyButton } from '@/components/table/CellContent';
import { useT } from '@/i18n';
import { useCanWrite } from '@/app/auth';
import { AccountEditor } from './AccountEditor';
import { SecretCell } from '@/components/secret';
import { checkAccounts, emptyAccountRow } from './siteForm';
import { addAccounts, refreshSiteLists, revealAccountPassword, siteAccountsQuery } from './sitesApi';

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalM },
  panel: { minHeight: '220px' },
  list: { maxHeight: '50vh', overflowY: 'auto' },
  yes: { color: tokens.colorPaletteGreenForeground1 },
  no: { color: tokens.colorPaletteRedForeground1 },
  center: { display: 'grid', placeItems: 'center', minHeight: '160px', color: tokens.colorNeutralForeground3 },
  idCell: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
  sub: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular },
});

type TabValue = 'new' | 'all';

export interface SiteAccountsDialogProps {
  site: Pick<Site, 'id' | 'name'>;
  open: boolean;
  onClose(): void;
}

/** A site's accounts: add new ones, or list all of them (spec section 2). */
export function SiteAccountsDialog({ open, ...props }: SiteAccountsDialogProps): ReactNode {
  return open ? <SiteAccountsSurface {...props} /> : null;
}

function SiteAccountsSurface({ site, onClose }: Omit<SiteAccountsDialogProps, 'open'>): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  // A viewer sees the accounts only: adding is a write.
  const canWrite = useCanWrite();
  const [tab, setTab] = useState<TabValue>(canWrite ? 'new' : 'all');
  // The page opens this dialog (mounted only while open); the hook's own open flag is not used.
  // After a save the hook starts the form again (one empty row) and the All Accounts tab shows.
  const { form, change, errors, busy, submit } = useFormDialog({
    initial: () => ({ accounts: [emptyAccountRow()] }),
    // Adding an empty list does nothing (spec section 5): Confirm is disabled then.
    check: (f) => checkAccounts(f.accounts),
    save: (body) => addAccounts(site.id, body.accounts),
    onDone: async () => {
      await refreshSiteLists(client);
      setTab('all');
    },
  });
  const rows = form.accounts;

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={dialogSurfaceStyle('60vw')}>
        <DialogBody>
          <DialogTitle>
            {t('Site Accounts')} <span className={styles.sub}>· {site.name}</span>
          </DialogTitle>
          <DialogContent>
            <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabValue)}>
              {canWrite ? <Tab value="new">{t('New Account')}</Tab> : null}
              <Tab value="all">{t('All Accounts')}</Tab>
            </TabList>
            <div
              className={styles.panel}
              role="tabpanel"
              aria-label={t(tab === 'new' ? 'New Account' : 'All Accounts')}
            >
              {tab === 'new' ? (
                <AccountEditor rows={rows} onRows={(accounts) => change('accounts', accounts)} errors={errors} />
              ) : (
                <AllAccounts siteId={site.id} />
              )}
            </div>
          </DialogContent>
          <DialogActions>
            {tab === 'new' ? (
              <>
                <Button onClick={onClose}>{t('Cancel')}</Button>
                <BusyButton busy={busy} disabled={rows.length === 0} onClick={submit}>
                  {t('Confirm')}
                </BusyButton>
              </>
            ) : (
              <Button appearance="primary" onClick={onClose}>
                {t('OK')}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function AllAccounts({ siteId }: { siteId: number }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { data, isPending, isError } = useQuery(siteAccountsQuery(siteId));
  let body: ReactNode;
  if (isPending) body = <Spinner className={styles.center} size="small" label={t('Loading…')} />;
  else if (isError) body = <Text className={styles.center}>{t('Fetch site accounts failed.')}</Text>;
  else if (data.length === 0) body = <Text className={styles.center}>{t('No account yet.')}</Text>;
  else {
    body = (
      <div className={styles.list}>
        <Table size="small" aria-label={t('All Accounts')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: 64 }}>{t('Index')}</TableHeaderCell>
              <TableHeaderCell>{t('AccountID')}</TableHeaderCell>
              <TableHeaderCell>{t('User')}</TableHeaderCell>
              <TableHeaderCell>{t('Pwd')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 80 }}>{t('Status')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.map((a, i) => (
              <TableRow key={a.id}>
                <TableCell>{i + 1}</TableCell>
                <TableCell>
                  <span className={styles.idCell}>
                    {a.id}
                    <CopyButton text={String(a.id)} />
                  </span>
                </TableCell>
                <TableCell>{a.user}</TableCell>
                <TableCell>
                  <SecretCell reveal={() => revealAccountPassword(a)} />
                </TableCell>
                <TableCell>
                  {a.enable ? (
                    <CheckmarkCircle16Filled className={styles.yes} aria-label={t('Enable')} />
                  ) : (
                    <DismissCircle16Filled className={styles.no} aria-label={t('Disable')} />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    );
  }
  return body;
}
