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

/** NoNeed is an outline (nothing happens there); Pending and Pushed are filled. */
const pushColors: Record<PushStatusValue, BadgeProps['color']> = { 0: 'informative', 1: 'brand', 2: 'success' };

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
  root: {
    display: 'inline-flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: '2px',
    verticalAlign: 'middle',
  },
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

/**
 * The push status badge over what follows it: when it was pushed, or, when the channel did not
 * push, why (the notify status; nothing when the push status says it all). Two short lines keep
 * the column narrow.
 */
export function ChannelStatus({ state }: { state: ChannelState }): ReactNode {
  const t = useT();
  const styles = useStyles();
  if (state.push === undefined || state.push === null) return EMPTY_TEXT;
  const pushed = state.push === P.Pushed && state.pushedAt !== null;
  return (
    <span className={styles.root}>
      <Badge
        appearance={state.push === P.NoNeed ? 'outline' : 'filled'}
        shape="rounded"
        color={pushColors[state.push] ?? 'informative'}
      >
        {t(PushStatus.label(state.push))}
      </Badge>
      {pushed ? <span className={styles.at}>{formatDateTime(state.pushedAt)}</span> : null}
      {!pushed && !SAID_BY_PUSH.includes(state.notify) ? <NotifyStatusBadge status={state.notify} /> : null}
    </span>
  );
}
