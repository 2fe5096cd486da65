import { Badge, type BadgeProps, Tooltip } from '@fluentui/react-components';
import { NotifyStatus } from '@shared/enums';
import type { Notification } from '@shared/schemas/notifications';
import type { ReactNode } from 'react';

const COLORS: Partial<Record<number, BadgeProps['color']>> = {
  [NotifyStatus.values.Success]: 'success',
  [NotifyStatus.values.Pending]: 'informative',
  [NotifyStatus.values.Failed]: 'danger',
  [NotifyStatus.values.ChannelClosed]: 'warning',
  [NotifyStatus.values.NoTarget]: 'warning',
};

/** The Telegram channel's status of a notification; why it is not Success on hover (Telegram's answer). */
export function TgStatusCell({ n }: { n: Notification }): ReactNode {
  if (n.status_tg === undefined || n.status_tg === null) return '/';
  const badge = (
    <Badge appearance="tint" color={COLORS[n.status_tg] ?? 'subtle'}>
      {NotifyStatus.label(n.status_tg)}
    </Badge>
  );
  return n.tg_remark ? (
    <Tooltip content={n.tg_remark} relationship="description">
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
