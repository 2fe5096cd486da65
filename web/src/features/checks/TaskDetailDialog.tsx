import { Divider, Link, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import type { Task } from '@shared/schemas/checks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime, formatSeconds, orEmpty, userName } from '@/app/format';
import { pathOf } from '@/app/paths';
import { DialogButton, OkDialog } from '@/components/dialog';
import { useT } from '@/i18n';
import { CheckpointList } from './CheckpointList';
import { durationMs, taskQuery } from './checksApi';
import { Facts } from '@/components/display/Facts';
import { RouteLink } from '@/components/display/RouteLink';
import { RunStatusBadge } from '@/components/display/RunStatusBadge';
import { GroupCounts, SubtaskGroups } from './SubtaskGroups';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  heading: {
    fontWeight: tokens.fontWeightSemibold,
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
  },
  counts: { display: 'inline-flex', gap: tokens.spacingHorizontalXS, marginLeft: tokens.spacingHorizontalS },
  center: { display: 'grid', placeItems: 'center', minHeight: '200px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

function TaskDetail({ task, onNavigate }: { task: Task; onNavigate(): void }): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <div className={styles.content}>
      <Facts
        items={[
          { label: t('ID'), value: task.id },
          {
            label: t('Operation'),
            value: (
              <RouteLink to={pathOf('operationDetail', { operationID: task.operation_id })} onNavigate={onNavigate}>
                #{task.operation_id}
              </RouteLink>
            ),
          },
          { label: t('Status'), value: <RunStatusBadge status={task.status} /> },
          {
            label: t('Site'),
            value: task.site ? (
              <>
                {task.site.name}
                <br />
                <Link href={task.site.url} target="_blank" rel="noreferrer" style={{ fontWeight: 'normal' }}>
                  {task.site.url}
                </Link>
              </>
            ) : (
              orEmpty(null)
            ),
          },
          { label: t('Account'), value: orEmpty(task.account?.user) },
          { label: t('Creator'), value: t(userName(task.creator)) },
          { label: t('Start At'), value: formatDateTime(task.start_at) },
          { label: t('End At'), value: formatDateTime(task.end_at) },
          { label: t('Duration'), value: formatSeconds(durationMs(task.start_at, task.end_at)) },
          { label: t('Created At'), value: formatDateTime(task.created_at) },
          {
            label: t('Progress'),
            value: t('{done} passed, {failed} failed, {running} running of {total}', {
              done: task.task_done,
              failed: task.task_failed,
              running: task.task_running,
              total: task.task_total,
            }),
          },
          { label: t('Remark'), value: orEmpty(task.remark), wide: true },
        ]}
      />
      <Divider />
      <Text className={styles.heading}>{t('Checkpoints')}</Text>
      <CheckpointList points={task.checkpoints?.points ?? []} />
      <Divider />
      <Text className={styles.heading}>
        {t('Sub Tasks')}
        <span className={styles.counts}>
          <GroupCounts failed={task.task_failed} running={task.task_running} total={task.task_total} />
        </span>
      </Text>
      <SubtaskGroups groups={task.subtasks ?? []} siteName={task.site?.name} />
    </div>
  );
}

/** The whole task with its subtasks grouped by process. */
export function TaskDetailDialog({ taskId, onClose }: { taskId: number; onClose(): void }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { data, isPending, isError } = useQuery(taskQuery(taskId));
  return (
    <OkDialog title={`${t('Task')} #${taskId}`} subtitle={data?.site?.name} size="80vw" onClose={onClose}>
      {isPending ? (
        <div className={styles.center}>
          <Spinner size="small" label={t('Loading…')} />
        </div>
      ) : isError || !data ? (
        <div className={styles.center}>
          <Text className={styles.muted}>{t('Fetch task failed.')}</Text>
        </div>
      ) : (
        <TaskDetail task={data} onNavigate={onClose} />
      )}
    </OkDialog>
  );
}

/** The Detail button of a task row; the dialog mounts only when opened. */
export function TaskDetailButton({ taskId }: { taskId: number }): ReactNode {
  return <DialogButton label="Detail" dialog={(close) => <TaskDetailDialog taskId={taskId} onClose={close} />} />;
}
