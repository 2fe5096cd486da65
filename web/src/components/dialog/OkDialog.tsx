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
import { type DialogSize, dialogSurfaceStyle } from '@/app/dialogSizes';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  subtitle: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular },
});

export interface OkDialogProps {
  /** Already translated by the caller. */
  title: ReactNode;
  /** Grey text after the title, e.g. 'Log #12'. */
  subtitle?: ReactNode;
  size?: DialogSize;
  contentClassName?: string;
  /** Buttons shown before OK, e.g. Copy. */
  extraActions?: ReactNode;
  onClose(): void;
  children: ReactNode;
}

/** A read-only dialog, open while mounted: a title, its content, and one OK button that closes it. */
export function OkDialog({
  title,
  subtitle,
  size = 'default',
  contentClassName,
  extraActions,
  onClose,
  children,
}: OkDialogProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <Dialog open onOpenChange={(_, d) => (d.open ? undefined : onClose())}>
      <DialogSurface style={dialogSurfaceStyle(size)}>
        <DialogBody>
          <DialogTitle>
            {title}
            {subtitle ? <span className={styles.subtitle}> · {subtitle}</span> : null}
          </DialogTitle>
          <DialogContent className={contentClassName}>{children}</DialogContent>
          <DialogActions>
            {extraActions}
            <Button appearance="primary" onClick={onClose}>
              {t('OK')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
