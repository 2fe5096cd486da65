import { ArrowRepeatAll16Regular, ArrowRepeatAll20Regular } from '@fluentui/react-icons';
import { Bank, BankNotificationCategory, NotifyStatus } from '@shared/enums';
import { type BankNotification, bankNotificationListFields } from '@shared/schemas/bank';
import { col, defineResource } from '@/components/table';
import { BANK_NOTIFICATIONS, replayBankNotifications } from './bankNotificationsApi';
import { contextText } from './contextText';
import { NotificationDetailsButton } from './NotificationDetailsDialog';

// A failed replay has shown its tip already; the table reloads either way (statuses may have moved).
const ignore = () => undefined;

/** Notifications Bank (spec sections 2 and 3): one row per bank notification, with its two channels. */
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
    col.enum('status_tg', 'TG Status', NotifyStatus, { filter: true, sortable: true }),
    col.datetime('pushed_tg_at', 'TG Pushed At', { filter: 'range', sortable: true }),
    col.enum('status_webhook', 'Webhook Status', NotifyStatus, { filter: true, sortable: true }),
    col.datetime('pushed_webhook_at', 'Webhook Pushed At', { filter: 'range', sortable: true }),
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
