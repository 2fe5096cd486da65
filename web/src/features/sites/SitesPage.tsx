import type { Site } from '@shared/schemas/sites';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { ResourceTable } from '@/components/table';
import { BatchCheckDialog, SiteCheckDialog } from '@/features/checks/checkDialogs';
import { NewSiteDialog } from './NewSiteDialog';
import { SiteAccountsDialog } from './SiteAccountsDialog';
import { type SiteDialog, sitesResource } from './sitesResource';

const NO_SITE: Site = {
  id: 0,
  name: '',
  url: '',
  available_account_cnt: 0,
  enable: false,
  control: false,
  created_at: 0,
  accounts: [],
};

/** '/sites': the Sites table and the dialogs it opens. */
export default function SitesPage(): ReactNode {
  const client = useQueryClient();
  const [dialog, setDialog] = useState<SiteDialog | null>(null);
  const resource = useMemo(() => sitesResource(setDialog, client), [client]);
  const close = () => setDialog(null);
  return (
    <>
      <ResourceTable resource={resource} />
      <NewSiteDialog open={dialog?.kind === 'new'} onClose={close} />
      <SiteAccountsDialog
        open={dialog?.kind === 'accounts'}
        site={dialog?.kind === 'accounts' ? dialog.site : NO_SITE}
        onClose={close}
      />
      <SiteCheckDialog
        open={dialog?.kind === 'check'}
        site={dialog?.kind === 'check' ? dialog.site : NO_SITE}
        onClose={close}
      />
      <BatchCheckDialog
        open={dialog?.kind === 'batch'}
        sites={dialog?.kind === 'batch' ? dialog.sites : []}
        onClose={close}
        onStarted={() => (dialog?.kind === 'batch' ? dialog.ctx.clearSelection() : undefined)}
      />
    </>
  );
}
