import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowRepeatAll16Regular, ArrowRepeatAll20Regular } from '@fluentui/react-icons';
import { Bank, BankNotificationCategory, NotifyStatus, PushStatus } from '@shared/enums';
import { type BankNotification, bankNotificationListFields } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { formatDateTime } from '@/app/format';
import { useT } from '@/i18n';
import { col, defineResource } from '@/components/table';
import { BANK_NOTIFICATIONS, replayBankNotifications } from './bankNotificationsApi';
import { ChannelStatus, channelOf, NotifyStatusBadge } from './ChannelStatus';
import { contextText } from './contextText';
import { NotificationDetailsButton } from './NotificationDetailsDialog';

// A failed replay has shown its tip already; the table reloads either way (statuses may have moved).
const ignore = () => undefined;

const useStyles = makeStyles({
  stack: { display: 'inline-flex', flexDirection: 'column', verticalAlign: 'middle', maxWidth: '160px' },
  line: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  minor: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  context: {
    display: 'inline-block',
    verticalAlign: 'middle',
    maxWidth: '200px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
});

/** The bank and login over the sub-account number: three columns' worth in one. */
function AccountCell({ n }: { n: BankNotification }): ReactNode {
  const styles = useStyles();
  if (!n.account) return EMPTY_TEXT;
  const account = `${Bank.label(n.account.bank_name)} · ${n.account.user}`;
  return (
    <span className={styles.stack}>
      <span className={styles.line} title={account}>
        {account}
      </span>
      {n.sub ? (
        <span className={mergeClasses(styles.line, styles.minor)} title={n.sub.no}>
          {n.sub.no}
        </span>
      ) : null}
    </span>
  );
}

/** What it is about: 'Statement' over '#17' (the statement's id; the account's for a Monitor notice). */
function CategoryCell({ n }: { n: BankNotification }): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <span className={styles.stack}>
      <span className={styles.line}>{t(BankNotificationCategory.label(n.category))}</span>
      <span className={mergeClasses(styles.line, styles.minor)}>#{n.business_id}</span>
    </span>
  );
}

/** The date over the time (the whole stamp in copy and export). */
function StampCell({ at }: { at: number }): ReactNode {
  const styles = useStyles();
  const [date, time] = formatDateTime(at).split(' ');
  return (
    <span className={styles.stack}>
      <span>{date}</span>
      <span className={styles.minor}>{time}</span>
    </span>
  );
}

function ContextCell({ text }: { text: string }): ReactNode {
  const styles = useStyles();
  return (
    <span className={styles.context} title={text}>
      {text || EMPTY_TEXT}
    </span>
  );
}

/**
 * Notifications Bank (spec sections 2 and 3): one row per bank notification, with its two channels.
 * Cells stack what belongs together so the table fits a 1440 px screen: the bank and login over the
 * sub-account, the category over the business id, per channel its push status over when it was
 * pushed or why it was not, the creation date over its time. Bank, Sub Account, Business ID, the pushed times and the notify
 * statuses are also columns of their own, hidden until chosen, to filter, sort and export by.
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
    col.number('business_id', 'Business ID', { filter: true, sortable: true, hidden: true }),
    col.number('account_id', 'Account ID', { filter: true, hidden: true }),
    col.enum('account.bank_name', 'Bank', Bank, { hidden: true }),
    col.text('account.user', 'Account', { render: (n) => <AccountCell n={n} /> }),
    col.text('sub.no', 'Sub Account', { copyable: true, hidden: true }),
    col.enum('category', 'Category', BankNotificationCategory, {
      filter: true,
      sortable: true,
      render: (n) => <CategoryCell n={n} />,
    }),
    col.custom('context', 'Context', {
      text: (n) => contextText(n.context),
      render: (n) => <ContextCell text={contextText(n.context)} />,
    }),
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
    col.datetime('created_at', 'Created At', {
      filter: 'range',
      sortable: true,
      render: (n) => <StampCell at={n.created_at} />,
    }),
  ],
  actions: [
    {
      label: 'Replay',
      write: true,
      icon: <ArrowRepeatAll20Regular />,
      requiresSelection: 'Select notifications to send again',
      onClick: (ctx) =>
        void replayBankNotifications({ ids: ctx.selected.map((n) => n.id) })
          .then(() => ctx.clearSelection(), ignore)
          .finally(() => ctx.refetch()),
    },
    {
      label: 'Replay Failed',
      write: true,
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
      write: true,
      icon: <ArrowRepeatAll16Regular />,
      onClick: (n, ctx) =>
        replayBankNotifications({ ids: [n.id] })
          .catch(ignore)
          .finally(() => ctx.refetch()),
    },
  ],
});
