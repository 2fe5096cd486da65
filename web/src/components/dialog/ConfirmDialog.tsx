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

/** A yes/no question titled Confirm (also over another dialog: Fluent stacks nested dialogs). */
export function ConfirmDialog({
  open,
  message,
  confirmLabel = 'Confirm',
  onConfirm,
  onCancel,
}: {
  open: boolean;
  message: ReactNode;
  /** The yes button's text (English, translated here). */
  confirmLabel?: string;
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
              {t(confirmLabel)}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
