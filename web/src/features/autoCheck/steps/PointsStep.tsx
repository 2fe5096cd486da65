import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { CheckpointGrid, type PointModes } from '@/features/checks/CheckpointGrid';
import { useT } from '@/i18n';

/** Step 3: the check engine's checkpoint grid. */
export function PointsStep({
  points,
  problem,
  showProblem,
  onChange,
}: {
  points: PointModes[];
  problem?: string;
  showProblem: boolean;
  onChange(points: PointModes[]): void;
}): ReactNode {
  const t = useT();
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12, maxWidth: 640 }}>
      {showProblem && problem ? (
        <MessageBar intent="error">
          <MessageBarBody>{t(problem)}</MessageBarBody>
        </MessageBar>
      ) : null}
      <CheckpointGrid value={points} onChange={onChange} />
    </div>
  );
}
