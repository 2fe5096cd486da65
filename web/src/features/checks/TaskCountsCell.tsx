import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  cell: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, whiteSpace: 'nowrap' },
  num: { fontVariantNumeric: 'tabular-nums', minWidth: '36px' },
});

export interface Counts {
  ended: number;
  total: number;
  failed: number;
  running: number;
}

/** 'ended/total', with failed and running called out when there are any. */
export function TaskCountsCell({ counts }: { counts: Counts }): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <span className={styles.cell}>
      <span className={styles.num} title={t('Ended / Total')}>
        {Math.min(counts.ended, counts.total)}/{counts.total}
      </span>
      {counts.failed > 0 ? (
        <Badge size="small" appearance="tint" color="danger">
          {t('Failed')} {counts.failed}
        </Badge>
      ) : null}
      {counts.running > 0 ? (
        <Badge size="small" appearance="tint" color="brand">
          {t('Running')} {counts.running}
        </Badge>
      ) : null}
    </span>
  );
}

/** The same for CSV export and copy. */
export const countsText = (c: Counts) => `${c.ended}/${c.total} (failed ${c.failed}, running ${c.running})`;

/** A task counts subtasks: passed and failed are disjoint. */
export const taskCounts = (x: {
  task_done: number;
  task_failed: number;
  task_running: number;
  task_total: number;
}): Counts => ({
  ended: x.task_done + x.task_failed,
  total: x.task_total,
  failed: x.task_failed,
  running: x.task_running,
});

/** An operation counts tasks: every ended task is in task_done, those with a failure also in task_failed. */
export const operationCounts = (x: {
  task_done: number;
  task_failed: number;
  task_running: number;
  task_total: number;
}): Counts => ({ ended: x.task_done, total: x.task_total, failed: x.task_failed, running: x.task_running });
