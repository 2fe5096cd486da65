import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Open16Regular, Send16Regular } from '@fluentui/react-icons';
import { NotificationCategory, NotificationStatus, NotifyStatus } from '@shared/enums';
import { type Notification, notificationListFields } from '@shared/schemas/notifications';
import type { ReactNode } from 'react';
import { navigateTo } from '@/app/navigation';
import { pathOf } from '@/app/paths';
import { col, defineResource } from '@/components/table';
import { NotificationStatusBadge } from './NotificationStatusBadge';
import { sendToTg } from './notificationsApi';
import { TgStatusCell } from './TgStatusCell';

const useStyles = makeStyles({
  unread: { fontWeight: tokens.fontWeightSemibold },
  text: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '320px', display: 'block' },
});

/** Unread titles stand out, as in a mailbox. */
function TitleCell({ n }: { n: Notification }): ReactNode {
  const styles = useStyles();
  const unread = n.status === NotificationStatus.values.Unread;
  return (
    <span className={mergeClasses(styles.text, unread && styles.unread)} title={n.title}>
      {n.title}
    </span>
  );
}

// No default sort: the server lists unread first, newest first within each.
export const notificationsResource = defineResource<Notification>({
  name: 'notifications',
  endpoint: '/notifications',
  listFields: notificationListFields,
  title: 'Notifications',
  rowId: (n) => n.id,
  columns: [
    col.number('id', 'ID', { filter: true }),
    col.enum('category', 'Category', NotificationCategory, { filter: true }),
    col.text('title', 'Title', { searchable: true, filter: true, render: (n) => <TitleCell n={n} /> }),
    col.text('caption', 'Caption', { searchable: true, filter: true }),
    col.enum('status', 'Status', NotificationStatus, {
      filter: true,
      render: (n) => <NotificationStatusBadge status={n.status} />,
    }),
    col.enum('status_tg', 'TG', NotifyStatus, { filter: true, render: (n) => <TgStatusCell n={n} /> }),
    col.user('from_user', 'Sender'),
    col.datetime('read_at', 'Read At', { filter: 'range', hidden: true }),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
  ],
  rowActions: [
    {
      label: 'Detail',
      icon: <Open16Regular />,
      onClick: (n) => navigateTo(pathOf('notificationDetail', { notificationID: n.id })),
    },
    {
      // Spec section 2: SendTG per row. The tips ('Send TG Notification Success.' / 'Send TG
      // Notification Failed.' with Telegram's reason) come from sendToTg; the row's TG status reloads either way.
      label: 'SendTG',
      write: true,
      icon: <Send16Regular />,
      onClick: (n, ctx) =>
        sendToTg(n.id).then(
          () => ctx.refetch(),
          () => ctx.refetch(),
        ),
    },
  ],
});
