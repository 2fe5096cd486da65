import { makeStyles } from '@fluentui/react-components';
import { type ReactNode, useEffect, useState } from 'react';
import { useInFlightCount } from '@/api/loadingTracker';
import { LOADING_BAR_COLOR, LOADING_BAR_HEIGHT_PX, LOADING_BAR_HIDE_DELAY_MS } from '../constants';

const useStyles = makeStyles({
  bar: {
    position: 'fixed',
    top: 0,
    left: 0,
    right: 0,
    height: `${LOADING_BAR_HEIGHT_PX}px`,
    zIndex: 10000,
    overflow: 'hidden',
    pointerEvents: 'none',
  },
  runner: {
    position: 'absolute',
    top: 0,
    bottom: 0,
    width: '40%',
    backgroundColor: LOADING_BAR_COLOR,
    animationName: {
      from: { transform: 'translateX(-100%)' },
      to: { transform: 'translateX(250%)' },
    },
    animationDuration: '1.1s',
    animationIterationCount: 'infinite',
    animationTimingFunction: 'ease-in-out',
    '@media (prefers-reduced-motion: reduce)': { width: '100%', animationName: 'none' },
  },
});

/** 2px red bar at the top while requests run; it lingers 200 ms so back-to-back calls read as one. */
export function LoadingBar(): ReactNode {
  const styles = useStyles();
  const busy = useInFlightCount() > 0;
  const [visible, setVisible] = useState(busy);
  useEffect(() => {
    if (busy) {
      setVisible(true);
      return;
    }
    const timer = setTimeout(() => setVisible(false), LOADING_BAR_HIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  if (!visible) return null;
  return (
    <div className={styles.bar} role="progressbar" aria-label="Loading" data-testid="loading-bar">
      <div className={styles.runner} />
    </div>
  );
}
