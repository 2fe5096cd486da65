// The recorded browser video of a check, used by the raw log view, the Browser Video play dialog
// and the check results dialog.
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import type { Video } from '@shared/schemas/checks';
import { useState } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { useT } from '@/i18n';

const useStyles = makeStyles({
  frame: {
    position: 'relative',
    width: '100%',
    aspectRatio: '16 / 9',
    backgroundColor: '#000',
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
  },
  video: { position: 'absolute', inset: 0, width: '100%', height: '100%' },
  empty: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '100%',
    aspectRatio: '16 / 9',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground3,
    borderRadius: tokens.borderRadiusMedium,
    textAlign: 'center',
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
    wordBreak: 'break-all',
  },
});

export function VideoPlayer({ video }: { video: Video | null | undefined }) {
  const t = useT();
  const styles = useStyles();
  if (!video) {
    return (
      <div className={styles.empty}>
        <Text>{t('No video record')}</Text>
      </div>
    );
  }
  // A new address gets a fresh player, so an earlier load failure does not stick to it.
  return <VideoFrame key={video.url ?? ''} url={video.url} />;
}

/** Plays `url`; a missing address or one the browser cannot load (say, an expired signed link) names it. */
function VideoFrame({ url }: { url: string | null }) {
  const t = useT();
  const styles = useStyles();
  const [failed, setFailed] = useState(false);
  if (!url || failed) {
    return (
      <div className={styles.empty} role="alert">
        <Text>{t('Load failed from {url}.', { url: url || EMPTY_TEXT })}</Text>
      </div>
    );
  }
  return (
    <div className={styles.frame}>
      {/* A silent screen recording: the empty captions track only satisfies media a11y rules. */}
      <video
        className={styles.video}
        controls
        preload="metadata"
        src={url}
        data-testid="video-player"
        onError={() => setFailed(true)}
      >
        <track kind="captions" />
      </video>
    </div>
  );
}
