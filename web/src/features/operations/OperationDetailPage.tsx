import {
  Badge,
  Field,
  makeStyles,
  ProgressBar,
  Skeleton,
  SkeletonItem,
  Subtitle1,
  Text,
  tokens,
} from '@fluentui/react-components';
import { OperationName, RunStatus } from '@shared/enums';
import type { Operation } from '@shared/schemas/checks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { formatDateTime, formatSeconds, orEmpty, userName } from '@/app/format';
import { LoadFailedPanel, PageHeader, Panel } from '@/app/PageHeader';
import { durationMs } from '@/features/checks/checksApi';
import { Facts } from '@/components/display/Facts';
import { RefreshButton } from '@/components/display/RefreshButton';
import { RunStatusBadge } from '@/components/display/RunStatusBadge';
import { useT } from '@/i18n';
import { OperationActionChip } from './OperationActionChip';
import { WriteOnly } from '@/app/WriteOnly';
import { OperationTasksTable } from './OperationTasksTable';
import { isOperationOpen, operationTasksQuery } from './operationsApi';
import { operationSiteText } from './operationSite';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  actions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  live: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
  },
  dot: {
    width: '8px',
    height: '8px',
    borderRadius: '50%',
    backgroundColor: tokens.colorPaletteGreenBackground3,
  },
  summary: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 2fr) minmax(260px, 1fr)',
    gap: tokens.spacingHorizontalXXL,
    '@media (max-width: 900px)': { gridTemplateColumns: '1fr' },
  },
  progress: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalXXL,
    borderLeft: `1px solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 900px)': { paddingLeft: 0, borderLeft: 'none' },
  },
  bigNumber: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
  },
  counts: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  sectionTitle: { display: 'block', margin: `0 0 ${tokens.spacingVerticalM}` },
});

function Progress({ op }: { op: Operation }): ReactNode {
  const t = useT();
  const styles = useStyles();
  // Spec section 4: completed tasks are the total minus the running ones.
  const completed = Math.max(0, op.task_total - op.task_running);
  const ratio = op.task_total ? op.task_done / op.task_total : 0;
  return (
    <div className={styles.progress}>
      <Text weight="semibold">{t('Progress')}</Text>
      <div>
        <span className={styles.bigNumber}>{op.task_done}</span>
        <Text size={400}>
          {' '}
          / {op.task_total} {t('tasks done')}
        </Text>
      </div>
      <Field
        validationMessage={t('Completed {completed} of {total}', { completed, total: op.task_total })}
        validationState="none"
      >
        <ProgressBar
          value={ratio}
          thickness="large"
          color={
            op.status === RunStatus.values.Failed ? 'error' : op.status === RunStatus.values.Done ? 'success' : 'brand'
          }
          aria-label={t('Progress')}
        />
      </Field>
      <div className={styles.counts}>
        <Badge appearance="tint" color={op.task_failed ? 'danger' : 'subtle'}>
          {t('Failed')} {op.task_failed}
        </Badge>
        <Badge appearance="tint" color={op.task_running ? 'brand' : 'subtle'}>
          {t('Running')} {op.task_running}
        </Badge>
        <Badge appearance="tint" color="informative">
          {t('Total')} {op.task_total}
        </Badge>
      </div>
    </div>
  );
}

function Summary({ op }: { op: Operation }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const site = operationSiteText(op);
  return (
    <Panel className={styles.summary}>
      <Facts
        items={[
          { label: t('Name'), value: t(OperationName.label(op.name)) },
          { label: t('Status'), value: <RunStatusBadge status={op.status} /> },
          { label: t('Operator'), value: t(userName(op.operator)) },
          { label: t('Site'), value: op.name === OperationName.values.SingleSite ? site : t(site) },
          { label: t('Start At'), value: formatDateTime(op.start_at) },
          { label: t('End At'), value: formatDateTime(op.end_at) },
          { label: t('Duration'), value: formatSeconds(durationMs(op.start_at, op.end_at)) },
          { label: t('Created At'), value: formatDateTime(op.created_at) },
          ...(op.rule_id
            ? [
                {
                  label: t('Rule'),
                  // Plain text until the rule detail screen exists (paths.ts): a link would open the 404 page.
                  value: `#${op.rule_id}`,
                },
              ]
            : []),
          { label: t('Remark'), value: orEmpty(op.remark), wide: true },
        ]}
      />
      <Progress op={op} />
    </Panel>
  );
}

function SummarySkeleton(): ReactNode {
  const t = useT();
  return (
    <Panel>
      <Skeleton aria-label={t('Loading')}>
        <SkeletonItem style={{ width: '40%', marginBottom: 12 }} />
        <SkeletonItem style={{ width: '70%', marginBottom: 12 }} />
        <SkeletonItem style={{ width: '55%' }} />
      </Skeleton>
    </Panel>
  );
}

export default function OperationDetailPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const id = Number(useParams().operationID);
  const { data, isPending, isError, isFetching, refetch } = useQuery(operationTasksQuery(id));
  const op = data?.operation;
  const live = isOperationOpen(op);

  const actions = (
    <div className={styles.actions}>
      {live ? (
        <span className={styles.live} title={t('Refreshes every 5 s while the operation runs')}>
          <span className={styles.dot} />
          {t('Live')}
        </span>
      ) : null}
      {op ? (
        <WriteOnly>
          <OperationActionChip operation={op} onDone={refetch} />
        </WriteOnly>
      ) : null}
      <RefreshButton onRefresh={refetch} busy={isFetching} />
    </div>
  );

  return (
    <div className={styles.page}>
      <PageHeader
        title={`${t('Operation')} #${id}`}
        subtitle={op ? `${t(OperationName.label(op.name))} · ${t(userName(op.operator))}` : undefined}
        actions={actions}
      />
      {data ? (
        <>
          <Summary op={data.operation} />
          <Panel>
            <Subtitle1 as="h2" className={styles.sectionTitle}>
              {t('Tasks')}
            </Subtitle1>
            <OperationTasksTable tasks={data.tasks} live={live} />
          </Panel>
        </>
      ) : isPending ? (
        <SummarySkeleton />
      ) : isError ? (
        <LoadFailedPanel message={t('Get operation failed.')} />
      ) : null}
    </div>
  );
}
