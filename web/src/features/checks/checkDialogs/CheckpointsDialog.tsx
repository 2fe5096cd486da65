import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
} from '@fluentui/react-components';
import { TaskListSquareLtr16Regular } from '@fluentui/react-icons';
import type { ProcessValue, TestModeValue } from '@shared/schemas/checks';
import { type ReactElement, type ReactNode, useMemo, useState } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { useT } from '@/i18n';
import { CheckpointGrid, fromProcesses } from '../CheckpointGrid';
import { SiteHeader } from './SiteHeader';

export interface CheckpointsDialogProps {
  /** As the read side gives them (a task's `checkpoints.points`). */
  points: readonly { process: ProcessValue; modes: readonly TestModeValue[] }[];
  site?: { name: string; url: string } | null;
  /** Controlled use; without it the dialog brings its own trigger button. */
  open?: boolean;
  onClose?(): void;
  /** The button that opens it when uncontrolled; a small 'Checkpoint' button by default. */
  trigger?: ReactElement;
}

/**
 * 'Checkpoints for site': the read-only checkpoint grid with only OK.
 * `<CheckpointsDialog points={task.checkpoints.points} site={task.site} />`
 */
export function CheckpointsDialog({ points, site, open, onClose, trigger }: CheckpointsDialogProps): ReactNode {
  const t = useT();
  const [own, setOwn] = useState(false);
  const controlled = open !== undefined;
  const isOpen = controlled ? open : own;
  const close = () => (controlled ? onClose?.() : setOwn(false));
  const value = useMemo(() => fromProcesses(points), [points]);
  const surface = (
    <DialogSurface style={dialogSurfaceStyle('60vw')}>
      <DialogBody>
        <DialogTitle>{t('Checkpoints for site')}</DialogTitle>
        <DialogContent>
          {site ? <SiteHeader site={site} /> : null}
          <CheckpointGrid value={value} readOnly />
        </DialogContent>
        <DialogActions>
          <Button appearance="primary" onClick={close}>
            {t('OK')}
          </Button>
        </DialogActions>
      </DialogBody>
    </DialogSurface>
  );
  const onOpenChange = (_: unknown, d: { open: boolean }) => (d.open ? setOwn(true) : close());
  // Fluent's Dialog takes either a surface alone or a trigger and a surface, not an optional trigger.
  if (controlled) {
    return (
      <Dialog open={isOpen} onOpenChange={onOpenChange}>
        {surface}
      </Dialog>
    );
  }
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger disableButtonEnhancement>
        {trigger ?? (
          <Button size="small" appearance="subtle" icon={<TaskListSquareLtr16Regular />}>
            {t('Checkpoint')}
          </Button>
        )}
      </DialogTrigger>
      {surface}
    </Dialog>
  );
}
