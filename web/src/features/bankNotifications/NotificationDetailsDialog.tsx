import { makeStyles, tokens } from '@fluentui/react-components';
import { NotifyStatus, PushChannel } from '@shared/enums';
import { emptyListQuery, type ListQuery, type ListResult, serializeListQuery } from '@shared/listQuery';
import type { BankNotification, BankNotificationHistory } from '@shared/schemas/bank';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { DialogButton, OkDialog } from '@/components/dialog';
import { Facts } from '@/components/display/Facts';
import { ResourceTable } from '@/components/table';
import { useT } from '@/i18n';
import { BANK_NOTIFICATION_HISTORY } from './bankNotificationsApi';
import { type ChannelName, ChannelStatus, channelOf, NotifyStatusBadge } from './ChannelStatus';
import { notificationAttemptsResource } from './historyResource';

const useStyles = makeStyles({
  channel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  reason: { fontWeight: tokens.fontWeightRegular, color: tokens.colorNeutralForeground2 },
  summary: { marginBottom: tokens.spacingVerticalL },
});

const CHANNELS: { name: ChannelName; channel: 1 | 2; label: string }[] = [
  { name: 'webhook', channel: PushChannel.values.WebHook, label: 'WebHook' },
  { name: 'tg', channel: PushChannel.values.TG, label: 'TG' },
];

/** The newest attempt of one channel: its remark says why the channel is where it is. */
function lastAttemptQuery(notificationId: number, channel: 1 | 2): ListQuery {
  return emptyListQuery({
    page_size: 1,
    sort: [{ field: 'created_at', order: 'desc' }],
    filters: {
      notification_id: { kind: 'number', op: '=', value: notificationId },
      channel: { kind: 'enum', values: [channel] },
    },
  });
}

/** A channel: its push status and outcome, and the remark of its last attempt (the push history's words). */
function ChannelFact({ n, name, channel }: { n: BankNotification; name: ChannelName; channel: 1 | 2 }): ReactNode {
  const styles = useStyles();
  const state = channelOf(n, name);
  // A channel that was never a target has no attempt to read.
  const attempted = state.notify !== undefined && state.notify !== NotifyStatus.values.NoNeed;
  const last = useQuery({
    // Read again when the channel moves (the table behind reloads the row).
    queryKey: queryKeys.related(
      BANK_NOTIFICATION_HISTORY,
      'last-attempt',
      `${n.id}:${channel}:${state.push}:${state.notify}`,
    ),
    queryFn: ({ signal }) =>
      request<ListResult<BankNotificationHistory>>({
        method: 'GET',
        url: notificationAttemptsResource.endpoint,
        params: serializeListQuery(lastAttemptQuery(n.id, channel)),
        signal,
        failureTip: notificationAttemptsResource.failureTip,
      }),
    enabled: attempted,
  });
  const remark = attempted ? last.data?.result[0]?.remark : undefined;
  return (
    <span className={styles.channel}>
      <ChannelStatus state={state} />
      {remark ? <span className={styles.reason}>{remark}</span> : null}
    </span>
  );
}

/**
 * Spec section 2: the wide 'Notification Details' dialog listing one notification's push history,
 * under a summary of where each channel stands (push status, outcome, the last attempt's remark).
 */
export function NotificationDetailsDialog({
  notification,
  onClose,
}: {
  notification: BankNotification;
  onClose(): void;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  // `notification_id==-{id}`: the list protocol's number equality (shared/listQuery).
  const baseFilters = useMemo(
    () => ({ notification_id: { kind: 'number' as const, op: '=' as const, value: notification.id } }),
    [notification.id],
  );
  return (
    <OkDialog title={t('Notification Details')} subtitle={`#${notification.id}`} size="90vw" onClose={onClose}>
      <div className={styles.summary}>
        <Facts
          items={[
            { label: t('Notify Status'), value: <NotifyStatusBadge status={notification.notify_status} /> },
            ...CHANNELS.map((c) => ({
              label: t(c.label),
              value: <ChannelFact n={notification} name={c.name} channel={c.channel} />,
            })),
          ]}
        />
      </div>
      <ResourceTable resource={notificationAttemptsResource} baseFilters={baseFilters} />
    </OkDialog>
  );
}

/** The Detail button of a bank notification row; the dialog mounts only when opened. */
export function NotificationDetailsButton({ notification }: { notification: BankNotification }): ReactNode {
  return (
    <DialogButton
      label="Detail"
      dialog={(close) => <NotificationDetailsDialog notification={notification} onClose={close} />}
    />
  );
}
