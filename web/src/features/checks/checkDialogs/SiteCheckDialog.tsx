import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Spinner,
} from '@fluentui/react-components';
import { CheckMessages, type Operation } from '@shared/schemas/checks';
import { type ReactNode, useState } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { toast } from '@/app/toast';
import { useT } from '@/i18n';
import { CheckpointGrid, type PointModes } from '../CheckpointGrid';
import { ConfirmDialog } from './ConfirmDialog';
import { OperationStarted } from './OperationStarted';
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

// Mounted per opening, so every opening starts with an empty choice.
function SiteCheckSurface({ site, onClose }: { site: CheckSite; onClose(): void }): ReactNode {
  const t = useT();
  const [points, setPoints] = useState<PointModes[]>([]);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<Operation | null>(null);

  const checkNow = () => {
    if (points.length === 0) {
      toast.warning(t(CheckMessages.noCheckpointSingle));
      return;
    }
    setAsking(true);
  };
  const run = async () => {
    setAsking(false);
    setBusy(true);
    try {
      setStarted(await startSiteCheck(site.id, points));
    } catch {
      // The failure tip is shown; the choice stays so the user can try again.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open modalType="modal" onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={dialogSurfaceStyle('60vw')}>
        <DialogBody>
          <DialogTitle>{t('Choose checkpoint for site')}</DialogTitle>
          <DialogContent>
            <SiteHeader site={site} />
            {started ? (
              <OperationStarted
                operation={started}
                text="Operation success, go operation menu to check."
                onOpen={onClose}
              />
            ) : (
              <CheckpointGrid value={points} onChange={setPoints} />
            )}
          </DialogContent>
          <DialogActions>
            {started ? (
              <Button appearance="primary" onClick={onClose}>
                {t('Close')}
              </Button>
            ) : (
              <>
                <Button onClick={onClose}>{t('Cancel')}</Button>
                <Button
                  appearance="primary"
                  disabled={busy}
                  icon={busy ? <Spinner size="tiny" /> : undefined}
                  onClick={checkNow}
                >
                  {t('Check Now')}
                </Button>
              </>
            )}
          </DialogActions>
        </DialogBody>
        <ConfirmDialog
          open={asking}
          message={t('This operation will detection this site immediately, confirm to continue?')}
          onConfirm={run}
          onCancel={() => setAsking(false)}
        />
      </DialogSurface>
    </Dialog>
  );
}
