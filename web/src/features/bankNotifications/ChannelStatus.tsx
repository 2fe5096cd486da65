import { Badge, type BadgeProps, makeStyles, tokens } from '@fluentui/react-components';
import { NotifyStatus, PushStatus } from '@shared/enums';
import type { BankNotification, NotifyStatusValue, PushStatusValue } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { formatDateTime } from '@/app/format';
import { useT } from '@/i18n';

// A bank notification's channel as an operator reads it (docs/notifications.md "Statuses"): whether
// it was pushed (push status, with the time) and, when it was not, why (the notify status of its
// attempts). The spec names the statuses but not their colours; these follow Fluent's meaning.

const N = NotifyStatus.values;
const P = PushStatus.values;

const pushColors: Record<PushStatusValue, BadgeProps['color']> = { 0: 'subtle', 1: 'informative', 2: 'success' };

const notifyColors: Partial<Record<NotifyStatusValue, BadgeProps['color']>> = {
  [N.Success]: 'success',
  [N.Pending]: 'informative',
  [N.Failed]: 'danger',
  [N.ChannelClosed]: 'warning',
  [N.NoTarget]: 'warning',
};

/** The notify statuses a push status already says: Pushed is a Success, Pending a Pending, NoNeed a No Need. */
const SAID_BY_PUSH: readonly (NotifyStatusValue | undefined)[] = [N.Success, N.Pending, N.NoNeed, undefined];

export type ChannelName = 'webhook' | 'tg';

export interface ChannelState {
  push: PushStatusValue;
  pushedAt: number | null;
  notify: NotifyStatusValue | undefined;
}

export function channelOf(n: BankNotification, channel: ChannelName): ChannelState {
  return channel === 'webhook'
    ? { push: n.status_webhook, pushedAt: n.pushed_webhook_at, notify: n.notify_webhook }
    : { push: n.status_tg, pushedAt: n.pushed_tg_at, notify: n.notify_tg };
}

const useStyles = makeStyles({
  root: { display: 'inline-flex', flexDirection: 'column', gap: '2px', verticalAlign: 'middle' },
  badges: { display: 'inline-flex', gap: tokens.spacingHorizontalXXS, flexWrap: 'nowrap' },
  at: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, whiteSpace: 'nowrap' },
});

export function NotifyStatusBadge({ status }: { status: NotifyStatusValue | undefined }): ReactNode {
  const t = useT();
  if (status === undefined || status === null) return EMPTY_TEXT;
  return (
    <Badge appearance="tint" shape="rounded" color={notifyColors[status] ?? 'subtle'}>
      {t(NotifyStatus.label(status))}
    </Badge>
  );
}

/** Push status badge, the notify status beside it when it says why the channel did not push, and the pushed time below. */
export function ChannelStatus({ state }: { state: ChannelState }): ReactNode {
  const t = useT();
  const styles = useStyles();
  if (state.push === undefined || state.push === null) return EMPTY_TEXT;
  return (
    <span className={styles.root}>
      <span className={styles.badges}>
        <Badge appearance="filled" shape="rounded" color={pushColors[state.push] ?? 'subtle'}>
          {t(PushStatus.label(state.push))}
        </Badge>
        {SAID_BY_PUSH.includes(state.notify) ? null : <NotifyStatusBadge status={state.notify} />}
      </span>
      {state.push === P.Pushed && state.pushedAt !== null ? (
        <span className={styles.at}>{formatDateTime(state.pushedAt)}</span>
      ) : null}
    </span>
  );
}
