import { Button, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { OkDialog } from '@/components/dialog';
import { copyText } from '@/components/table/CellContent';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  text: { whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0 },
  pre: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    maxHeight: '60vh',
    overflow: 'auto',
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
});

export interface InfoAlertDialogProps {
  /** Nothing is rendered while false. */
  open: boolean;
  onClose(): void;
  title: string;
  text: string;
  /** Monospaced block (JSON, stack traces) instead of running text. */
  preformatted?: boolean;
}

/** The spec's information alert: a title, the text, and Copy and OK buttons. */
export function InfoAlertDialog({ open, onClose, title, text, preformatted }: InfoAlertDialogProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  if (!open) return null;
  return (
    <OkDialog
      title={title}
      extraActions={<Button onClick={() => void copyText(text, t)}>{t('Copy')}</Button>}
      onClose={onClose}
    >
      {preformatted ? <pre className={styles.pre}>{text}</pre> : <p className={styles.text}>{text}</p>}
    </OkDialog>
  );
}
