import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { CSSProperties, FormEvent, ReactElement, ReactNode } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { FormDialogActions } from './FormDialogActions';

const useStyles = makeStyles({
  fields: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export interface FormDialogProps {
  /** What `useFormDialog` returned (its open state, busy flag and submit). */
  state: { open: boolean; setOpen(open: boolean): void; busy: boolean; submit(e: FormEvent): unknown };
  /** The button that opens the dialog. */
  trigger: ReactElement;
  /** Translated title. */
  title: ReactNode;
  /** 'alert': no light dismiss (forms that would lose typing on an outside click). */
  modalType?: 'modal' | 'alert';
  /** The surface's size; the default dialog width otherwise. */
  surfaceStyle?: CSSProperties;
  /** The fields, stacked. */
  children: ReactNode;
}

/**
 * The shell of a form dialog behind a button: trigger, surface, `<form>` with title, stacked fields
 * and the Cancel/Confirm actions. The dialog's fields and rules are its own; the markup is here once.
 */
export function FormDialog({ state, trigger, title, modalType, surfaceStyle, children }: FormDialogProps): ReactNode {
  const styles = useStyles();
  return (
    <Dialog open={state.open} modalType={modalType} onOpenChange={(_, d) => state.setOpen(d.open)}>
      <DialogTrigger disableButtonEnhancement>{trigger}</DialogTrigger>
      <DialogSurface style={surfaceStyle ?? dialogSurfaceStyle('default')}>
        <form onSubmit={state.submit} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.fields}>{children}</DialogContent>
            <FormDialogActions busy={state.busy} />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
