import { Badge, type BadgeProps } from '@fluentui/react-components';
import { RunStatus } from '@shared/enums';
import type { RunStatusValue } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { useT } from '@/i18n';

// The spec names the statuses but not their colours; these follow Fluent's meaning of each colour.
const colors: Record<RunStatusValue, BadgeProps['color']> = {
  1: 'informative',
  2: 'brand',
  3: 'warning',
  99: 'danger',
  100: 'success',
};

/** Status of an operation, task or subtask (tasks use the same values without Failed). */
export function RunStatusBadge({
  status,
  size = 'medium',
}: {
  status: number | null | undefined;
  size?: BadgeProps['size'];
}): ReactNode {
  const t = useT();
  if (status === null || status === undefined) return EMPTY_TEXT;
  const color = colors[status as RunStatusValue] ?? 'subtle';
  return (
    <Badge appearance="tint" shape="rounded" size={size} color={color}>
      {t(RunStatus.label(status as RunStatusValue))}
    </Badge>
  );
}
