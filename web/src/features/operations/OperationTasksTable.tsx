import {
  Button,
  makeStyles,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ChevronDown16Regular, ChevronRight16Regular } from '@fluentui/react-icons';
import type { Task } from '@shared/schemas/checks';
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode, useEffect, useState } from 'react';
import { AUTO_REFRESH_MS } from '@/app/constants';
import { formatDateTime, formatSeconds, orEmpty } from '@/app/format';
import { durationMs, taskQuery } from '@/features/checks/checksApi';
import { RunStatusBadge } from '@/components/display/RunStatusBadge';
import { SubtaskGroups } from '@/features/checks/SubtaskGroups';
import { TaskCheckpointsButton } from '@/features/checks/TaskCheckpointsButton';
import { TaskDetailButton } from '@/features/checks/TaskDetailDialog';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  scroll: { overflowX: 'auto' },
  // Fluent tables share the width equally; these columns differ too much for that.
  table: { tableLayout: 'auto' },
  head: { fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap' },
  num: { fontVariantNumeric: 'tabular-nums', textAlign: 'right', whiteSpace: 'nowrap' },
  failed: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  running: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  nowrap: { whiteSpace: 'nowrap' },
  site: { display: 'flex', flexDirection: 'column', minWidth: '140px' },
  stack: { display: 'flex', flexDirection: 'column', fontVariantNumeric: 'tabular-nums' },
  second: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  url: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS },
  expanded: { backgroundColor: tokens.colorNeutralBackground2 },
  detail: { padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL} ${tokens.spacingVerticalL} 40px` },
  empty: { textAlign: 'center', color: tokens.colorNeutralForeground3, padding: `${tokens.spacingVerticalXXL} 0` },
});

/** The subtasks of one task, loaded when its row opens; it follows the operation while that runs. */
function TaskSubtasks({ task, live }: { task: Task; live: boolean }): ReactNode {
  const t = useT();
  const { data, isPending, isError, refetch } = useQuery({
    ...taskQuery(task.id),
    refetchInterval: live ? AUTO_REFRESH_MS : false,
  });
  // The polling stops when the operation ends, which can be just before the last subtasks end:
  // whenever the task row itself moves on, read its subtasks once more so they never lag behind it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the task's progress is the trigger, not an input.
  useEffect(() => {
    void refetch();
  }, [task.status, task.task_done, task.task_failed, task.task_running, refetch]);
  if (isPending) return <Spinner size="tiny" label={t('Loading…')} />;
  if (isError || !data) return <Text>{t('Fetch task failed.')}</Text>;
  return <SubtaskGroups groups={data.subtasks ?? []} siteName={task.site?.name} />;
}

const COLUMNS = 10;

/** The tasks of an operation, one per site, each opening onto its subtasks grouped by process. */
export function OperationTasksTable({ tasks, live }: { tasks: Task[]; live: boolean }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set(tasks.length === 1 ? [tasks[0]!.id] : []));
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className={styles.scroll}>
      <Table size="small" className={styles.table} aria-label={t('Tasks')}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell style={{ width: 36 }} />
            <TableHeaderCell className={styles.head}>{t('ID')}</TableHeaderCell>
            <TableHeaderCell className={styles.head}>{t('Site')}</TableHeaderCell>
            <TableHeaderCell className={styles.head}>{t('Status')}</TableHeaderCell>
            <TableHeaderCell className={styles.head}>{t('Failed')}</TableHeaderCell>
            <TableHeaderCell className={styles.head}>{t('Running')}</TableHeaderCell>
            <TableHeaderCell className={styles.head}>{t('Total')}</TableHeaderCell>
            <TableHeaderCell className={styles.head}>
              {t('Start At')} / {t('End At')}
            </TableHeaderCell>
            <TableHeaderCell className={styles.head}>{t('Duration')}</TableHeaderCell>
            <TableHeaderCell className={styles.head}>{t('Operations')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {tasks.length === 0 ? (
            <TableRow>
              <TableCell colSpan={COLUMNS} className={styles.empty}>
                {t('No result')}
              </TableCell>
            </TableRow>
          ) : null}
          {tasks.map((task) => {
            const expanded = open.has(task.id);
            return (
              <Fragment key={task.id}>
                <TableRow className={expanded ? styles.expanded : undefined}>
                  <TableCell>
                    <Button
                      size="small"
                      appearance="transparent"
                      aria-expanded={expanded}
                      aria-label={t(expanded ? 'Hide subtasks of task {id}' : 'Show subtasks of task {id}', {
                        id: task.id,
                      })}
                      icon={expanded ? <ChevronDown16Regular /> : <ChevronRight16Regular />}
                      onClick={() => toggle(task.id)}
                    />
                  </TableCell>
                  <TableCell className={styles.nowrap}>{task.id}</TableCell>
                  <TableCell>
                    <span className={styles.site}>
                      <span>{orEmpty(task.site?.name)}</span>
                      {task.site?.url ? <span className={styles.url}>{task.site.url}</span> : null}
                    </span>
                  </TableCell>
                  <TableCell>
                    <RunStatusBadge status={task.status} />
                  </TableCell>
                  <TableCell className={styles.num}>
                    <span className={task.task_failed ? styles.failed : undefined}>{task.task_failed}</span>
                  </TableCell>
                  <TableCell className={styles.num}>
                    <span className={task.task_running ? styles.running : undefined}>{task.task_running}</span>
                  </TableCell>
                  <TableCell className={styles.num}>{task.task_total}</TableCell>
                  <TableCell className={styles.nowrap}>
                    <span className={styles.stack}>
                      <span>{formatDateTime(task.start_at)}</span>
                      <span className={styles.second}>{formatDateTime(task.end_at)}</span>
                    </span>
                  </TableCell>
                  <TableCell className={styles.num}>{formatSeconds(durationMs(task.start_at, task.end_at))}</TableCell>
                  <TableCell>
                    <span className={styles.actions}>
                      <TaskCheckpointsButton task={task} />
                      <TaskDetailButton taskId={task.id} />
                    </span>
                  </TableCell>
                </TableRow>
                {expanded ? (
                  <TableRow className={styles.expanded}>
                    <TableCell colSpan={COLUMNS} className={styles.detail}>
                      <TaskSubtasks task={task} live={live} />
                    </TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
