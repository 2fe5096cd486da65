import { makeStyles, tokens } from '@fluentui/react-components';
import { Open16Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import type { DialogSize } from '@/app/dialogSizes';
import { DialogButton, OkDialog } from '@/components/dialog';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export interface DetailDialogButtonProps {
  /** Button text (English, translated here). */
  label: string;
  /** Shown after the label, e.g. a count of rows. */
  count?: number;
  title: string;
  /** Grey text after the title, e.g. 'Log #12'. */
  subtitle?: string;
  size?: DialogSize;
  disabled?: boolean;
  /** Built only once the dialog opens: a page of rows carries buttons, not dialogs. */
  children: () => ReactNode;
}

/** A cell button that opens a read-only dialog with an OK button (the log detail dialogs). */
export function DetailDialogButton({
  label,
  count,
  title,
  subtitle,
  size = 'default',
  disabled,
  children,
}: DetailDialogButtonProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <DialogButton
      label={label}
      count={count}
      icon={<Open16Regular />}
      disabled={disabled}
      dialog={(close) => (
        <OkDialog title={t(title)} subtitle={subtitle} size={size} contentClassName={styles.content} onClose={close}>
          {children()}
        </OkDialog>
      )}
    />
  );
}
