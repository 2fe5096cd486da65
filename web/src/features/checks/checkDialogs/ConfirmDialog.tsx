import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/** A yes/no question over another dialog; Fluent stacks nested dialogs. */
export function ConfirmDialog({
  open,
  message,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  message: string;
  onConfirm(): void;
  onCancel(): void;
}): ReactNode {
  const t = useT();
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, d) => !d.open && onCancel()}>
      <DialogSurface style={{ maxWidth: 460 }}>
        <DialogBody>
          <DialogTitle>{t('Confirm')}</DialogTitle>
          <DialogContent>{message}</DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>{t('Cancel')}</Button>
            <Button appearance="primary" onClick={onConfirm}>
              {t('Confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
