// The check dialogs of the Sites screen, and the read-only checkpoints dialog other screens reuse.
export { BatchCheckDialog, type BatchCheckDialogProps } from './BatchCheckDialog';
export { CheckpointsDialog, type CheckpointsDialogProps } from './CheckpointsDialog';
export { type CheckSite, SiteCheckDialog } from './SiteCheckDialog';
export { startBatchCheck, startSiteCheck } from './startCheck';
