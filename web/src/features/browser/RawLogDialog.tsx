import { makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { DocumentDismiss24Regular, Globe16Regular } from '@fluentui/react-icons';
import type { RawLog } from '@shared/schemas/checks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DialogButton, OkDialog } from '@/components/dialog';
import { useT } from '@/i18n';
import { RawLogView } from './RawLogView';
import { type RawLogSource, rawLogQuery } from './rawLogsApi';

const useStyles = makeStyles({
  center: { display: 'grid', placeItems: 'center', minHeight: '200px' },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalS,
    minHeight: '200px',
    color: tokens.colorNeutralForeground3,
  },
});

export interface RawLogDialogProps {
  source: RawLogSource;
  title: string;
  subtitle?: string;
  /** Shown while the fresh copy loads (the Browser Log row already holds the raw log). */
  placeholder?: RawLog;
  onClose(): void;
}

/** A raw log with its step timings, screenshot and video; 'No Check Logs' when it cannot be loaded. */
export function RawLogDialog({ source, title, subtitle, placeholder, onClose }: RawLogDialogProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { data, isPending, isError } = useQuery({ ...rawLogQuery(source), placeholderData: placeholder });
  let body: ReactNode;
  if (data) body = <RawLogView log={data} />;
  else if (isPending && !isError) {
    body = (
      <div className={styles.center}>
        <Spinner size="small" label={t('Loading…')} />
      </div>
    );
  } else {
    // The failure tip has said why; the dialog stays as it is (spec section 8: no retry).
    body = (
      <div className={styles.empty}>
        <DocumentDismiss24Regular />
        <Text>{t('No Check Logs')}</Text>
      </div>
    );
  }
  return (
    <OkDialog title={title} subtitle={subtitle} size="60vw" onClose={onClose}>
      {body}
    </OkDialog>
  );
}

/** A row's View button for its raw log; the dialog mounts only when opened. */
export function RawLogButton({
  label = 'View',
  disabled,
  ...dialog
}: Omit<RawLogDialogProps, 'onClose'> & { label?: string; disabled?: boolean }): ReactNode {
  return (
    <DialogButton
      label={label}
      icon={<Globe16Regular />}
      disabled={disabled}
      dialog={(close) => <RawLogDialog {...dialog} onClose={close} />}
    />
  );
}
