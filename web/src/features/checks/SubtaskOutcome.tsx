import { Badge, Tooltip } from '@fluentui/react-components';
import type { Subtask } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { RunStatusBadge } from '@/components/display/RunStatusBadge';
import { useT } from '@/i18n';

/**
 * A subtask's status with what its attempts came to: Flaky (passed after a failed attempt) and
 * Slow (passed over its process's time budget) tell an unreliable or slow pass from a clean one.
 */
export function SubtaskOutcome({
  subtask,
}: {
  subtask: Pick<Subtask, 'status' | 'flaky' | 'degraded' | 'attempts'>;
}): ReactNode {
  const t = useT();
  return (
    <span style={{ display: 'inline-flex', gap: 4, flexWrap: 'wrap' }}>
      <RunStatusBadge status={subtask.status} />
      {subtask.flaky ? (
        <Tooltip content={t('Passed after {n} attempts', { n: subtask.attempts ?? 2 })} relationship="description">
          <Badge appearance="filled" shape="rounded" color="warning">
            {t('Flaky')}
          </Badge>
        </Tooltip>
      ) : null}
      {subtask.degraded ? (
        <Tooltip content={t('Passed slower than its time budget')} relationship="description">
          <Badge appearance="outline" shape="rounded" color="important">
            {t('Slow')}
          </Badge>
        </Tooltip>
      ) : null}
    </span>
  );
}
