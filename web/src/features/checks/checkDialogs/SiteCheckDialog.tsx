import { CheckMessages } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { CheckDialogFrame } from './CheckDialogFrame';
import { SiteHeader } from './SiteHeader';
import { startSiteCheck } from './startCheck';

export interface CheckSite {
  id: number;
  name: string;
  url: string;
}

/** 'Choose checkpoint for site': pick points and modes, confirm, and the check starts at once. */
export function SiteCheckDialog({ site, open, onClose }: { site: CheckSite; open: boolean; onClose(): void }) {
  return open ? <SiteCheckSurface site={site} onClose={onClose} /> : null;
}

function SiteCheckSurface({ site, onClose }: { site: CheckSite; onClose(): void }): ReactNode {
  const t = useT();
  return (
    <CheckDialogFrame
      title={t('Choose checkpoint for site')}
      header={<SiteHeader site={site} />}
      successText="Operation success, go operation menu to check."
      confirmText={t('This operation will detection this site immediately, confirm to continue?')}
      refuse={(points) => (points.length ? null : CheckMessages.noCheckpointSingle)}
      start={(points) => startSiteCheck(site.id, points)}
      onClose={onClose}
    />
  );
}
