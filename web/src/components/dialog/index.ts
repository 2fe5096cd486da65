export { FormDialog, type FormDialogProps } from './FormDialog';
export { FormDialogActions, type FormDialogActionsProps } from './FormDialogActions';
export { OkDialog, type OkDialogProps } from './OkDialog';
export { ConfirmDialog } from './ConfirmDialog';
export { DialogButton } from './DialogButton';
