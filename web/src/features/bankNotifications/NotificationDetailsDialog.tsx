import { Button } from '@fluentui/react-components';
import type { BankNotification } from '@shared/schemas/bank';
import { type ReactNode, useMemo, useState } from 'react';
import { OkDialog } from '@/components/dialog';
import { ResourceTable } from '@/components/table';
import { useT } from '@/i18n';
import { notificationAttemptsResource } from './historyResource';

/** Spec section 2: the wide 'Notification Details' dialog listing one notification's push history. */
export function NotificationDetailsDialog({
  notification,
  onClose,
}: {
  notification: BankNotification;
  onClose(): void;
}): ReactNode {
  const t = useT();
  // `notification_id==-{id}`: the list protocol's number equality (shared/listQuery).
  const baseFilters = useMemo(
    () => ({ notification_id: { kind: 'number' as const, op: '=' as const, value: notification.id } }),
    [notification.id],
  );
  return (
    <OkDialog title={t('Notification Details')} subtitle={`#${notification.id}`} size="80vw" onClose={onClose}>
      <ResourceTable resource={notificationAttemptsResource} baseFilters={baseFilters} />
    </OkDialog>
  );
}

/** The Detail button of a bank notification row; the dialog mounts only when opened. */
export function NotificationDetailsButton({ notification }: { notification: BankNotification }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" appearance="subtle" onClick={() => setOpen(true)}>
        {t('Detail')}
      </Button>
      {open ? <NotificationDetailsDialog notification={notification} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
