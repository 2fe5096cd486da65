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
import { Play16Regular } from '@fluentui/react-icons';
import { Process } from '@shared/enums';
import type { Video } from '@shared/schemas/checks';
import { type ReactNode, useState } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { formatDateTime } from '@/app/format';
import { useT } from '@/i18n';
import { VideoPlayer } from './VideoPlayer';

const useStyles = makeStyles({
  subtitle: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular },
});

/** The Play button of a video row and its 50vw play dialog. */
export function PlayVideoButton({ video }: { video: Video }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" appearance="subtle" icon={<Play16Regular />} onClick={() => setOpen(true)}>
        {t('Play')}
      </Button>
      {open ? (
        <Dialog open onOpenChange={(_, d) => (d.open ? undefined : setOpen(false))}>
          <DialogSurface style={dialogSurfaceStyle('50vw')}>
            <DialogBody>
              <DialogTitle>
                {t('Video')} #{video.id}{' '}
                <span className={styles.subtitle}>
                  · {t(Process.label(video.process))} · {formatDateTime(video.created_at)}
                </span>
              </DialogTitle>
              <DialogContent>
                <VideoPlayer video={video} />
              </DialogContent>
              <DialogActions>
                <Button appearance="primary" onClick={() => setOpen(false)}>
                  {t('OK')}
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      ) : null}
    </>
  );
}
