import { Button } from '@fluentui/react-components';
import { Play16Regular } from '@fluentui/react-icons';
import { Process } from '@shared/enums';
import type { Video } from '@shared/schemas/checks';
import { type ReactNode, useState } from 'react';
import { formatDateTime } from '@/app/format';
import { OkDialog } from '@/components/dialog';
import { useT } from '@/i18n';
import { VideoPlayer } from './VideoPlayer';

/** The Play button of a video row and its 50vw play dialog. */
export function PlayVideoButton({ video }: { video: Video }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" appearance="subtle" icon={<Play16Regular />} onClick={() => setOpen(true)}>
        {t('Play')}
      </Button>
      {open ? (
        <OkDialog
          title={`${t('Video')} #${video.id}`}
          subtitle={`${t(Process.label(video.process))} · ${formatDateTime(video.created_at)}`}
          size="50vw"
          onClose={() => setOpen(false)}
        >
          <VideoPlayer video={video} />
        </OkDialog>
      ) : null}
    </>
  );
}
