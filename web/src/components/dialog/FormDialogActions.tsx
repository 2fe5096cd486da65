import { Button, DialogActions, DialogTrigger } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { BusyButton } from '../form/BusyButton';

export interface FormDialogActionsProps {
  /** While the form is being sent: the submit button is disabled and spins. */
  busy: boolean;
  /** Cancel's handler; without it Cancel closes the dialog through its trigger. */
  onCancel?(): void;
  /** Submit button text key (English, translated here); 'Confirm' by default. */
  confirmLabel?: string;
}

/** The Cancel and submit buttons of a form dialog (place inside its `<form>`). */
export function FormDialogActions({ busy, onCancel, confirmLabel }: FormDialogActionsProps): ReactNode {
  const t = useT();
  return (
    <DialogActions>
      {onCancel ? (
        <Button type="button" onClick={onCancel}>
          {t('Cancel')}
        </Button>
      ) : (
        <DialogTrigger disableButtonEnhancement>
          <Button type="button">{t('Cancel')}</Button>
        </DialogTrigger>
      )}
      <BusyButton type="submit" busy={busy}>
        {t(confirmLabel ?? 'Confirm')}
      </BusyButton>
    </DialogActions>
  );
}
