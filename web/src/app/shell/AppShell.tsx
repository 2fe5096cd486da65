import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { Outlet, useLocation, useSearchParams } from 'react-router-dom';
import { WebPushPoller } from '@/features/notifications/WebPushPoller';
import { DisplayTimeZone } from '@/features/super/DisplayTimeZone';
import { matchRoute, type RouteDef, readyRoutes } from '../routes';
import { usePersistentState } from '../usePersistentState';
import { LeftNav } from './LeftNav';
import { PageTabs } from './PageTabs';
import { SuperNav } from './SuperNav';
import { TopBar } from './TopBar';

export const LEFT_DRAWER_KEY = 'patrol.drawer.left';
export const RIGHT_DRAWER_KEY = 'patrol.drawer.right';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    height: '100vh',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  body: { display: 'flex', flexGrow: 1, minHeight: 0 },
  main: { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0 },
  content: {
    flexGrow: 1,
    overflow: 'auto',
    padding: tokens.spacingHorizontalL,
  },
  wall: { minHeight: '100vh', padding: tokens.spacingHorizontalXL, backgroundColor: tokens.colorNeutralBackground3 },
});

/** The route's page alone (`alone` in routes.tsx: the wall screen, a report's print view), if its flag is set. */
function useAlone(routeList: readonly RouteDef[]): 'wall' | 'paper' | null {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const alone = matchRoute(pathname, routeList)?.def.alone;
  return alone && params.get(alone.flag) === '1' ? alone.frame : null;
}

/** The console frame: app bar, menu drawer, page tabs, content, super drawer. */
export function AppShell({ routeList = readyRoutes }: { routeList?: readonly RouteDef[] }): ReactNode {
  const styles = useStyles();
  const [leftOpen, setLeftOpen] = usePersistentState(LEFT_DRAWER_KEY, true);
  const [rightOpen, setRightOpen] = usePersistentState(RIGHT_DRAWER_KEY, true);
  const alone = useAlone(routeList);
  // Paper: the printed report formats its times in its own zone, and the printer waits for nothing else.
  if (alone === 'paper') return <Outlet />;
  if (alone === 'wall')
    return (
      <div className={styles.wall}>
        <DisplayTimeZone>
          <Outlet />
        </DisplayTimeZone>
      </div>
    );
  return (
    <div className={styles.root}>
      <TopBar menuOpen={leftOpen} onToggleMenu={() => setLeftOpen((o) => !o)} />
      <div className={styles.body}>
        <LeftNav open={leftOpen} routeList={routeList} />
        <main className={styles.main}>
          <PageTabs />
          <div className={styles.content}>
            <DisplayTimeZone>
              <Outlet />
            </DisplayTimeZone>
          </div>
        </main>
        <SuperNav open={rightOpen} onToggle={() => setRightOpen((o) => !o)} routeList={routeList} />
      </div>
      <WebPushPoller />
    </div>
  );
}
