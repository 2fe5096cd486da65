import { Badge } from '@fluentui/react-components';
import { type EnumValue, NotificationStatus } from '@shared/enums';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

export function NotificationStatusBadge({ status }: { status: EnumValue<typeof NotificationStatus> }): ReactNode {
  const t = useT();
  const unread = status === NotificationStatus.values.Unread;
  return (
    <Badge appearance={unread ? 'filled' : 'tint'} color={unread ? 'brand' : 'informative'}>
      {t(NotificationStatus.label(status))}
    </Badge>
  );
}
