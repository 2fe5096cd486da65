import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link,
  makeStyles,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { CheckMessages, type Operation } from '@shared/schemas/checks';
import { type ReactNode, useState } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { toast } from '@/app/toast';
import { useT } from '@/i18n';
import { CheckpointGrid, type PointModes } from '../CheckpointGrid';
import { ConfirmDialog } from './ConfirmDialog';
import { OperationStarted } from './OperationStarted';
import type { CheckSite } from './SiteCheckDialog';
import { startBatchCheck } from './startCheck';

const useStyles = makeStyles({
  sites: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    maxHeight: '160px',
    overflowY: 'auto',
    display: 'grid',
    rowGap: tokens.spacingVerticalXXS,
  },
  siteUrl: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalS },
  section: { display: 'block', margin: `${tokens.spacingVerticalM} 0 ${tokens.spacingVerticalS}` },
  accordion: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
});

export interface BatchCheckDialogProps {
  sites: CheckSite[];
  open: boolean;
  onClose(): void;
  /** After the operation is created (e.g. to clear the table's selection). */
  onStarted?(operation: Operation): void;
}

/** 'Choose checkpoint for multi sites (N)': the chosen sites, a checkpoint grid, one operation for all. */
export function BatchCheckDialog({ open, ...props }: BatchCheckDialogProps): ReactNode {
  return open ? <BatchCheckSurface {...props} /> : null;
}

function BatchCheckSurface({ sites, onClose, onStarted }: Omit<BatchCheckDialogProps, 'open'>): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [points, setPoints] = useState<PointModes[]>([]);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<Operation | null>(null);

  const checkNow = () => {
    if (sites.length === 0) return toast.warning(t(CheckMessages.noSites));
    if (points.length === 0) return toast.warning(t(CheckMessages.noPointBatch));
    setAsking(true);
  };
  const run = async () => {
    setAsking(false);
    setBusy(true);
    try {
      const operation = await startBatchCheck(
        sites.map((s) => s.id),
        points,
      );
      setStarted(operation);
      onStarted?.(operation);
    } catch {
      // The failure tip is shown; the choice stays.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open modalType="modal" onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={dialogSurfaceStyle('60vw')}>
        <DialogBody>
          <DialogTitle>{t('Choose checkpoint for multi sites ({count})', { count: sites.length })}</DialogTitle>
          <DialogContent>
            <Accordion collapsible className={styles.accordion}>
              <AccordionItem value="sites">
                <AccordionHeader>{t('Sites ({count})', { count: sites.length })}</AccordionHeader>
                <AccordionPanel>
                  <ol className={styles.sites} aria-label={t('Sites')}>
                    {sites.map((s) => (
                      <li key={s.id}>
                        <span>{s.name}</span>
                        <Link className={styles.siteUrl} href={s.url} target="_blank" rel="noreferrer noopener">
                          {s.url}
                        </Link>
                      </li>
                    ))}
                  </ol>
                </AccordionPanel>
              </AccordionItem>
            </Accordion>
            <Subtitle2 as="h3" className={styles.section}>
              {t('Checkpoints')}
            </Subtitle2>
            {started ? (
              <OperationStarted
                operation={started}
                text="Check success, go operation menu to check."
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
          message={t('This operation will detection those sites immediately, confirm to continue?')}
          onConfirm={run}
          onCancel={() => setAsking(false)}
        />
      </DialogSurface>
    </Dialog>
  );
}
