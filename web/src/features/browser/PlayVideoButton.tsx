import { Play16Regular } from '@fluentui/react-icons';
import { Process } from '@shared/enums';
import type { Video } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/app/format';
import { DialogButton, OkDialog } from '@/components/dialog';
import { useT } from '@/i18n';
import { VideoPlayer } from './VideoPlayer';

/** The Play button of a video row and its 50vw play dialog. */
export function PlayVideoButton({ video }: { video: Video }): ReactNode {
  const t = useT();
  return (
    <DialogButton
      label="Play"
      icon={<Play16Regular />}
      dialog={(close) => (
        <OkDialog
          title={`${t('Video')} #${video.id}`}
          subtitle={`${t(Process.label(video.process))} · ${formatDateTime(video.created_at)}`}
          size="50vw"
          onClose={close}
        >
          <VideoPlayer video={video} />
        </OkDialog>
      )}
    />
  );
}
