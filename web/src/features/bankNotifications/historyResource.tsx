import { makeStyles } from '@fluentui/react-components';
import { PushChannel } from '@shared/enums';
import { type BankNotificationHistory, bankNotificationHistoryListFields } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { col, defineResource, type ResourceConfig } from '@/components/table';
import { BANK_NOTIFICATION_HISTORY } from './bankNotificationsApi';

const useStyles = makeStyles({
  clip: {
    display: 'block',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontFamily: 'monospace',
  },
});

/** params and content are JSON (headers, body); resp is the receiver's text. */
export const jsonText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** A long value on one line, at most `width` px; the whole of it in the tooltip and in copy/export. */
function Clipped({ text, width }: { text: string; width: number }): ReactNode {
  const styles = useStyles();
  return (
    <span className={styles.clip} style={{ maxWidth: width }} title={text}>
      {text}
    </span>
  );
}

/** The history's columns, its JSON and response text clipped at `clip` px. */
const historyColumns = (clip: number): ResourceConfig<BankNotificationHistory>['columns'] => {
  const clipped = (text: (h: BankNotificationHistory) => string) => ({
    text,
    render: (h: BankNotificationHistory) => <Clipped text={text(h)} width={clip} />,
  });
  return [
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
  ];
};

/** One row per delivery attempt (and per outcome without a request: NO Target, Channel Closed, Duplication). */
const history: ResourceConfig<BankNotificationHistory> = {
  name: BANK_NOTIFICATION_HISTORY,
  endpoint: '/notifications-bank/history',
  listFields: bankNotificationHistoryListFields,
  title: 'Notifications Bank History',
  rowId: (h) => h.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch notification history failed.',
  columns: historyColumns(360),
};

export const historyResource = defineResource(history);

/** One notification's attempts in the Details dialog: oldest first, so they read as the story of its delivery. */
// The headers sent and the payload are the same JSON on every attempt of one notification, and at a
// third of the dialog's width each they pushed Code, Response and Remark (what differs between
// attempts) out of sight: hidden here until shown in the column dialog, and still in copy/export.
// The receiver's answer is clipped shorter than on the page, so every column fits the dialog.
const SAME_ON_EVERY_ATTEMPT = new Set(['params', 'content']);

export const notificationAttemptsResource = defineResource<BankNotificationHistory>({
  ...history,
  name: `${BANK_NOTIFICATION_HISTORY}-of-one`,
  title: 'Push History',
  defaultSort: { field: 'created_at', order: 'asc' },
  columns: historyColumns(160)
    .filter((c) => c.id !== 'notification_id')
    .map((c) => (SAME_ON_EVERY_ATTEMPT.has(c.id) ? { ...c, hidden: true } : c)),
});
