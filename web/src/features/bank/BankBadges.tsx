import { Badge, type BadgeProps, Tooltip } from '@fluentui/react-components';
import { BankAccountStatus, SubAccountStatus } from '@shared/enums';
import type { BankAccountStatusValue, SubAccountStatusValue } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { useT } from '@/i18n';

// The spec names the statuses but not their colours; these follow Fluent's meaning of each colour.
// The dashboard's donut colours an account status's slice by its badge's colour (BankPanel.tsx).
export const accountColors: Readonly<Record<BankAccountStatusValue, BadgeProps['color']>> = {
  1: 'success',
  2: 'danger',
  3: 'danger',
  9: 'warning',
  99: 'subtle',
};
const subColors: Record<SubAccountStatusValue, BadgeProps['color']> = {
  1: 'success',
  2: 'danger',
  9: 'warning',
  99: 'subtle',
};

function StatusBadge({ label, color }: { label: string; color: BadgeProps['color'] }): ReactNode {
  const t = useT();
  return (
    <Badge appearance="tint" shape="rounded" color={color ?? 'informative'}>
      {t(label)}
    </Badge>
  );
}

/** A bank account's status with the label of its enum (1 Enable, 2 Incorrect, 3 Locked, 9 Wrong, 99 Disable). */
export function BankAccountStatusBadge({ status }: { status: number | null | undefined }): ReactNode {
  if (status === null || status === undefined) return EMPTY_TEXT;
  return (
    <StatusBadge
      label={BankAccountStatus.label(status as BankAccountStatusValue)}
      color={accountColors[status as BankAccountStatusValue]}
    />
  );
}

/** A sub-account's status (1 Available, 2 Unavailable, 9 Wrong, 99 Disable). */
export function SubAccountStatusBadge({ status }: { status: number | null | undefined }): ReactNode {
  if (status === null || status === undefined) return EMPTY_TEXT;
  return (
    <StatusBadge
      label={SubAccountStatus.label(status as SubAccountStatusValue)}
      color={subColors[status as SubAccountStatusValue]}
    />
  );
}

export const STALE_HELP = 'Its polls have failed for 3 intervals inside the monitor range.';

/** The stale marker: an enabled account inside its range whose polls have failed for 3 intervals. */
export function StaleBadge({ stale }: { stale: boolean | null | undefined }): ReactNode {
  const t = useT();
  if (!stale) return null;
  return (
    <Tooltip content={t(STALE_HELP)} relationship="description">
      <Badge appearance="filled" shape="rounded" color="warning">
        {t('Stale')}
      </Badge>
    </Tooltip>
  );
}
