import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import type { Operation } from '@shared/schemas/checks';
import { type ReactNode, useState } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { toast } from '@/app/toast';
import { ConfirmDialog } from '@/components/dialog';
import { BusyButton } from '@/components/form/BusyButton';
import { useT } from '@/i18n';
import { CheckpointGrid, type PointModes } from '../CheckpointGrid';
import { OperationStarted } from './OperationStarted';

export interface CheckDialogFrameProps {
  /** Translated title. */
  title: string;
  /** What is checked, shown above the grid (one site, or the list of sites). */
  header: ReactNode;
  /** Success text key, shown with the link to the new operation. */
  successText: string;
  /** Translated confirmation question. */
  confirmText: string;
  /** The warning (text key) that keeps a choice from being sent, or null. */
  refuse(points: PointModes[]): string | null;
  start(points: PointModes[]): Promise<Operation>;
  onClose(): void;
  onStarted?(operation: Operation): void;
}

/**
 * The single-site and the batch check dialogs: pick points and modes, confirm, start one operation,
 * then offer the way to it. Mounted per opening, so every opening starts with an empty choice.
 */
export function CheckDialogFrame(props: CheckDialogFrameProps): ReactNode {
  const { title, header, successText, confirmText, refuse, start, onClose, onStarted } = props;
  const t = useT();
  const [points, setPoints] = useState<PointModes[]>([]);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<Operation | null>(null);

  const checkNow = () => {
    const warning = refuse(points);
    if (warning) toast.warning(t(warning));
    else setAsking(true);
  };
  const run = async () => {
    setAsking(false);
    setBusy(true);
    try {
      const operation = await start(points);
      setStarted(operation);
      onStarted?.(operation);
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
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            {header}
            {started ? (
              <OperationStarted operation={started} text={successText} onOpen={onClose} />
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
                <BusyButton busy={busy} onClick={checkNow}>
                  {t('Check Now')}
                </BusyButton>
              </>
            )}
          </DialogActions>
        </DialogBody>
        <ConfirmDialog open={asking} message={confirmText} onConfirm={run} onCancel={() => setAsking(false)} />
      </DialogSurface>
    </Dialog>
  );
}
