import { makeStyles } from '@fluentui/react-components';
import { PushChannel } from '@shared/enums';
import { type BankNotificationHistory, bankNotificationHistoryListFields } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { col, defineResource, type ResourceConfig } from '@/components/table';
import { BANK_NOTIFICATION_HISTORY } from './bankNotificationsApi';

const useStyles = makeStyles({
  clip: {
    display: 'block',
    maxWidth: '360px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontFamily: 'monospace',
  },
});

/** params and content are JSON (headers, body); resp is the receiver's text. */
export const jsonText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** A long value on one line; the whole of it in the tooltip and in copy/export. */
function Clipped({ text }: { text: string }): ReactNode {
  const styles = useStyles();
  return (
    <span className={styles.clip} title={text}>
      {text}
    </span>
  );
}

const clipped = (text: (h: BankNotificationHistory) => string) => ({
  text,
  render: (h: BankNotificationHistory) => <Clipped text={text(h)} />,
});

/** One row per delivery attempt (and per outcome without a request: NO Target, Channel Closed, Duplication). */
const history: ResourceConfig<BankNotificationHistory> = {
  name: BANK_NOTIFICATION_HISTORY,
  endpoint: '/notifications-bank/history',
  listFields: bankNotificationHistoryListFields,
  title: 'Notifications Bank History',
  rowId: (h) => h.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch notification history failed.',
  columns: [
    col.number('id', 'ID', { filter: true }),
    col.number('notification_id', 'Notification ID', { filter: true, sortable: true }),
    col.enum('channel', 'Channel', PushChannel, { filter: true, sortable: true }),
    col.text('callback_url', 'Callback URL', { searchable: true, filter: true, copyable: true }),
    col.custom(
      'params',
      'Params',
      clipped((h) => jsonText(h.params)),
    ),
    col.custom(
      'content',
      'Content',
      clipped((h) => jsonText(h.content)),
    ),
    col.number('code', 'Code', { filter: true, sortable: true }),
    col.custom(
      'resp',
      'Response',
      clipped((h) => h.resp ?? ''),
    ),
    col.text('remark', 'Remark', { searchable: true, filter: true }),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
  ],
};

export const historyResource = defineResource(history);

/** One notification's attempts in the Details dialog: oldest first, so they read as the story of its delivery. */
export const notificationAttemptsResource = defineResource<BankNotificationHistory>({
  ...history,
  name: `${BANK_NOTIFICATION_HISTORY}-of-one`,
  title: 'Push History',
  defaultSort: { field: 'created_at', order: 'asc' },
  columns: history.columns.filter((c) => c.id !== 'notification_id'),
});
