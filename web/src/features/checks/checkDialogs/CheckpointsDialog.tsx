import { TaskListSquareLtr16Regular } from '@fluentui/react-icons';
import type { ProcessValue, TestModeValue } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { DialogButton, OkDialog } from '@/components/dialog';
import { useT } from '@/i18n';
import { CheckpointGrid, fromProcesses } from '../CheckpointGrid';
import { SiteHeader } from './SiteHeader';

export interface CheckpointsDialogProps {
  /** As the read side gives them (a task's `checkpoints.points`). */
  points: readonly { process: ProcessValue; modes: readonly TestModeValue[] }[];
  site?: { name: string; url: string } | null;
}

/**
 * A small 'Checkpoint' button opening 'Checkpoints for site': the read-only checkpoint grid with
 * only OK. `<CheckpointsDialog points={task.checkpoints.points} site={task.site} />`
 */
export function CheckpointsDialog({ points, site }: CheckpointsDialogProps): ReactNode {
  const t = useT();
  return (
    <DialogButton
      label="Checkpoint"
      icon={<TaskListSquareLtr16Regular />}
      dialog={(close) => (
        <OkDialog title={t('Checkpoints for site')} size="60vw" onClose={close}>
          {site ? <SiteHeader site={site} /> : null}
          <CheckpointGrid value={fromProcesses(points)} readOnly />
        </OkDialog>
      )}
    />
  );
}
