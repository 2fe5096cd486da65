import type { Task } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { CheckpointsDialog } from './checkDialogs/CheckpointsDialog';

/** The Checkpoint popup of a task row: the read-only 'Checkpoints for site' dialog of its points. */
export function TaskCheckpointsButton({ task }: { task: Pick<Task, 'checkpoints' | 'site'> }): ReactNode {
  return <CheckpointsDialog points={task.checkpoints?.points ?? []} site={task.site} />;
}
