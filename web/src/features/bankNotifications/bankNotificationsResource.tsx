import { ArrowRepeatAll16Regular, ArrowRepeatAll20Regular } from '@fluentui/react-icons';
import { Bank, BankNotificationCategory, NotifyStatus, PushStatus } from '@shared/enums';
import { type BankNotification, bankNotificationListFields } from '@shared/schemas/bank';
import { col, defineResource } from '@/components/table';
import { BANK_NOTIFICATIONS, replayBankNotifications } from './bankNotificationsApi';
import { ChannelStatus, channelOf, NotifyStatusBadge } from './ChannelStatus';
import { contextText } from './contextText';
import { NotificationDetailsButton } from './NotificationDetailsDialog';

// A failed replay has shown its tip already; the table reloads either way (statuses may have moved).
const ignore = () => undefined;

/**
 * Notifications Bank (spec sections 2 and 3): one row per bank notification, with its two channels.
 * A channel is one cell (push status, why it did not push, when it was pushed) so the table fits
 * 1440 px; the pushed times and notify statuses are also columns of their own, hidden until chosen,
 * to filter and sort by.
 */
export const bankNotificationsResource = defineResource<BankNotification>({
  name: BANK_NOTIFICATIONS,
  endpoint: '/notifications-bank',
  listFields: bankNotificationListFields,
  title: 'Notifications Bank',
  rowId: (n) => n.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch bank notifications failed.',
  columns: [
    col.number('id', 'ID', { filter: true }),
    col.number('business_id', 'Business ID', { filter: true, sortable: true }),
    col.number('account_id', 'Account ID', { filter: true, hidden: true }),
    col.enum('account.bank_name', 'Bank', Bank),
    col.text('account.user', 'Account', { copyable: true }),
    col.text('sub.no', 'Sub Account', { copyable: true }),
    col.enum('category', 'Category', BankNotificationCategory, { filter: true, sortable: true }),
    col.custom('context', 'Context', { text: (n) => contextText(n.context) }),
    col.enum('status_webhook', 'Webhook', PushStatus, {
      filter: true,
      sortable: true,
      render: (n) => <ChannelStatus state={channelOf(n, 'webhook')} />,
    }),
    col.enum('status_tg', 'TG', PushStatus, {
      filter: true,
      sortable: true,
      render: (n) => <ChannelStatus state={channelOf(n, 'tg')} />,
    }),
    col.enum('notify_status', 'Notify Status', NotifyStatus, {
      filter: true,
      sortable: true,
      hidden: true,
      render: (n) => <NotifyStatusBadge status={n.notify_status} />,
    }),
    col.datetime('pushed_webhook_at', 'Webhook Pushed At', { filter: 'range', sortable: true, hidden: true }),
    col.enum('notify_webhook', 'Webhook Notify Status', NotifyStatus, { filter: true, sortable: true, hidden: true }),
    col.datetime('pushed_tg_at', 'TG Pushed At', { filter: 'range', sortable: true, hidden: true }),
    col.enum('notify_tg', 'TG Notify Status', NotifyStatus, { filter: true, sortable: true, hidden: true }),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
  ],
  actions: [
    {
      label: 'Replay',
      icon: <ArrowRepeatAll20Regular />,
      requiresSelection: 'Select notifications to send again',
      onClick: (ctx) =>
        void replayBankNotifications({ ids: ctx.selected.map((n) => n.id) })
          .then(() => ctx.clearSelection(), ignore)
          .finally(() => ctx.refetch()),
    },
    {
      label: 'Replay Failed',
      icon: <ArrowRepeatAll20Regular />,
      onClick: (ctx) =>
        void replayBankNotifications({ failed: true })
          .catch(ignore)
          .finally(() => ctx.refetch()),
    },
  ],
  rowActions: [
    { label: 'Detail', render: (n) => <NotificationDetailsButton notification={n} /> },
    {
      label: 'Replay',
      icon: <ArrowRepeatAll16Regular />,
      onClick: (n, ctx) =>
        replayBankNotifications({ ids: [n.id] })
          .catch(ignore)
          .finally(() => ctx.refetch()),
    },
  ],
});
