import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
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
  return (
    <Dialog open={open} onOpenChange={(_, d) => (d.open ? undefined : onClose())}>
      <DialogSurface style={dialogSurfaceStyle()}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            {preformatted ? <pre className={styles.pre}>{text}</pre> : <p className={styles.text}>{text}</p>}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => void copyText(text, t)}>{t('Copy')}</Button>
            <Button appearance="primary" onClick={onClose}>
              {t('OK')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
