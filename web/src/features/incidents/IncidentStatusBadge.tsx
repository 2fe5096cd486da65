import { Badge } from '@fluentui/react-components';
import { IncidentStatus, type IncidentStatusValue } from '@shared/schemas/incidents';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

const COLORS: Record<IncidentStatusValue, 'danger' | 'warning' | 'informative' | 'success'> = {
  1: 'danger',
  2: 'warning',
  3: 'informative',
  4: 'success',
};

export function IncidentStatusBadge({ status }: { status: IncidentStatusValue }): ReactNode {
  const t = useT();
  return (
    <Badge appearance="filled" color={COLORS[status]}>
      {t(IncidentStatus.label(status))}
    </Badge>
  );
}
