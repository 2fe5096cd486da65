import {
  Badge,
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
import {
  ArrowSync20Regular,
  CheckmarkCircle20Regular,
  PlayCircle20Regular,
  Prohibited20Regular,
  Snooze20Regular,
  Wrench20Regular,
} from '@fluentui/react-icons';
import { Bank, Process, TestMode } from '@shared/enums';
import {
  type IncidentActionBody,
  type IncidentDetail,
  type IncidentEvent,
  IncidentEventKind,
  IncidentKind,
  IncidentSeverity,
  IncidentStatus,
} from '@shared/schemas/incidents';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router-dom';
import { formatDateTime, orEmpty } from '@/app/format';
import { LoadFailedPanel, PageHeader, Panel } from '@/app/PageHeader';
import { pathOf } from '@/app/paths';
import { WriteOnly } from '@/app/WriteOnly';
import { Facts } from '@/components/display/Facts';
import { FamilyCell } from './FamilyCell';
import { RefreshButton } from '@/components/display/RefreshButton';
import { RouteLink } from '@/components/display/RouteLink';
import { useT } from '@/i18n';
import { actOnIncident, incidentQuery, refreshIncidents } from './incidentsApi';
import { IncidentStatusBadge } from './IncidentStatusBadge';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '1200px' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  title: { display: 'block', marginBottom: tokens.spacingVerticalM },
  note: { color: tokens.colorNeutralForeground2, wordBreak: 'break-word' },
});

const KIND_COLORS: Record<IncidentEvent['kind'], 'danger' | 'success' | 'warning' | 'informative' | 'subtle'> = {
  failure: 'danger',
  resolved: 'success',
  acknowledged: 'warning',
  snoozed: 'informative',
  snooze_ended: 'subtle',
  rerun: 'informative',
  maintenance: 'warning',
  reminder: 'subtle',
  polled: 'informative',
  disabled: 'warning',
  escalated: 'danger',
  grouped: 'subtle',
};

/** What an event says beside its kind: a failure's message, a snooze's end, a re-run's operation. */
function EventNote({ e }: { e: IncidentEvent }): ReactNode {
  const t = useT();
  if (e.kind === 'snoozed') return t('Until {time}', { time: formatDateTime(Number(e.note)) });
  if (e.operation_id && e.kind !== 'failure' && e.kind !== 'resolved')
    return (
      <RouteLink to={pathOf('operationDetail', { operationID: e.operation_id })}>
        {t('Operation {id}', { id: e.operation_id })}
      </RouteLink>
    );
  return e.note || null;
}

function Timeline({ events }: { events: IncidentEvent[] }): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <Table size="small" aria-label={t('Timeline')}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell style={{ width: 170 }}>{t('Time')}</TableHeaderCell>
          <TableHeaderCell style={{ width: 150 }}>{t('What')}</TableHeaderCell>
          <TableHeaderCell style={{ width: 170 }}>{t('Who')}</TableHeaderCell>
          <TableHeaderCell style={{ width: 160 }}>{t('Subtask')}</TableHeaderCell>
          <TableHeaderCell>{t('Detail')}</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((e) => (
          <TableRow key={e.id} data-kind={e.kind}>
            <TableCell>{formatDateTime(e.at)}</TableCell>
            <TableCell>
              <Badge appearance="tint" color={KIND_COLORS[e.kind]}>
                {t(IncidentEventKind.label(e.kind))}
              </Badge>
            </TableCell>
            <TableCell>
              {e.actor ? `${e.actor.nickname}${e.via === 'telegram' ? ` · ${t('Telegram')}` : ''}` : t('SYSTEM')}
            </TableCell>
            <TableCell>
              {e.subtask_id && e.operation_id ? (
                <RouteLink to={pathOf('operationDetail', { operationID: e.operation_id })}>
                  {t('Subtask {id}', { id: e.subtask_id })}
                </RouteLink>
              ) : null}
            </TableCell>
            <TableCell className={styles.note}>
              <EventNote e={e} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Actions({ incident }: { incident: IncidentDetail }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const resolved = incident.status === IncidentStatus.values.Resolved;
  const act = async (body: IncidentActionBody) => {
    setBusy(true);
    try {
      await actOnIncident(incident.id, body);
    } catch {
      // The failure tip has been shown.
    } finally {
      setBusy(false);
      await refreshIncidents(client);
    }
  };
  const disabled = busy || resolved;
  return (
    <div className={styles.actions}>
      <Button
        icon={<CheckmarkCircle20Regular />}
        disabled={disabled || incident.status === IncidentStatus.values.Acknowledged}
        onClick={() => void act({ action: 'acknowledge' })}
      >
        {t('Acknowledge')}
      </Button>
      <Button
        icon={<Snooze20Regular />}
        disabled={disabled}
        onClick={() => void act({ action: 'snooze', minutes: 60 })}
      >
        {t('Snooze 1 h')}
      </Button>
      <Button
        icon={<Snooze20Regular />}
        disabled={disabled}
        onClick={() => void act({ action: 'snooze', minutes: 240 })}
      >
        {t('Snooze 4 h')}
      </Button>
      {incident.kind === IncidentKind.values.Bank ? (
        // A bank incident's own (issue 45): poll its account now, or disable the account.
        <>
          <Button icon={<ArrowSync20Regular />} disabled={disabled} onClick={() => void act({ action: 'poll' })}>
            {t('Poll now')}
          </Button>
          <Button icon={<Prohibited20Regular />} disabled={disabled} onClick={() => void act({ action: 'disable' })}>
            {t('Disable account')}
          </Button>
        </>
      ) : (
        <>
          <Button icon={<PlayCircle20Regular />} disabled={disabled} onClick={() => void act({ action: 'rerun' })}>
            {t('Re-run')}
          </Button>
          <Button icon={<Wrench20Regular />} disabled={disabled} onClick={() => void act({ action: 'maintenance' })}>
            {t('Start maintenance 1 h')}
          </Button>
        </>
      )}
    </div>
  );
}

/** What the incident is about: a check's site, process and mode; a bank's bank, account and alert rule. */
function subjectOf(i: IncidentDetail, t: ReturnType<typeof useT>): string {
  if (i.kind === IncidentKind.values.Bank) {
    const parts = [i.bank_name === null ? '' : Bank.label(i.bank_name), i.account_user ?? ''];
    if (i.rule_name) parts.push(t('Alert rule {name}', { name: i.rule_name }));
    return parts.filter(Boolean).join(' · ');
  }
  if (i.process === null || i.mode === null) return i.site_name ?? '';
  return `${i.site_name} · ${t(Process.label(i.process))} (${t(TestMode.label(i.mode))})`;
}

/** '/incidents/{incidentID}': the incident, what people can do about it, and its timeline. */
export default function IncidentDetailPage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const id = Number(useParams().incidentID);
  const { data, isPending, isError, refetch, isFetching } = useQuery(incidentQuery(id));
  if (isError) return <LoadFailedPanel message={t('Fetch incident failed.')} />;
  if (isPending || !data) return <Spinner label={t('Loading')} />;
  return (
    <div className={styles.page}>
      <PageHeader
        title={t('Incident {id}', { id: data.id })}
        subtitle={subjectOf(data, t)}
        actions={<RefreshButton onRefresh={refetch} busy={isFetching} labelled />}
      />
      <Panel>
        <Facts
          items={[
            { label: t('Status'), value: <IncidentStatusBadge status={data.status} /> },
            { label: t('Kind'), value: t(IncidentKind.label(data.kind)) },
            { label: t('Severity'), value: t(IncidentSeverity.label(data.severity)) },
            // A parent's children, or a child's parent (issue 45).
            ...(data.cause || data.parent_id ? [{ label: t('Children'), value: <FamilyCell incident={data} /> }] : []),
            { label: t('Failures'), value: data.failures },
            { label: t('Opened At'), value: formatDateTime(data.opened_at) },
            { label: t('Last Failure'), value: formatDateTime(data.last_failure_at) },
            { label: t('Acknowledged By'), value: orEmpty(data.acknowledged_by?.nickname) },
            { label: t('Snoozed Until'), value: formatDateTime(data.snoozed_until) },
            { label: t('Resolved At'), value: formatDateTime(data.resolved_at) },
            {
              label: t('Telegram'),
              value: data.telegram
                ? t('Message {id} in chat {chat}', { id: data.telegram.message_id, chat: data.telegram.chat_id })
                : '/',
            },
            { label: t('Last Message'), value: orEmpty(data.last_message), wide: true },
          ]}
        />
      </Panel>
      <WriteOnly>
        <Panel>
          <Actions incident={data} />
        </Panel>
      </WriteOnly>
      <Panel>
        <Text as="h2" weight="semibold" className={styles.title}>
          {t('Timeline')}
        </Text>
        <Timeline events={data.timeline} />
      </Panel>
    </div>
  );
}
