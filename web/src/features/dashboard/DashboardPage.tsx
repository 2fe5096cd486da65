// The home page (issue 26 item 6): the spec's welcome and logo as a compact header, then the
// panels that answer "is everything healthy?": Health, History, Timings, Next runs, Bank,
// Delivery. `/?tv=1` is the wall screen: no menus (AppShell), large type, a refresh every 30 s,
// failing cells first.
import { Button, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { FullScreenMaximizeRegular, TvRegular } from '@fluentui/react-icons';
import { WALL_REFRESH_MS } from '@shared/schemas/dashboard';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '@/app/auth';
import { Logo } from '@/app/Logo';
import { useT } from '@/i18n';
import { dashboardWidgets } from './dashboardWidgets';
import { BankPanel } from './panels/BankPanel';
import { DeliveryPanel } from './panels/DeliveryPanel';
import { HealthPanel } from './panels/HealthPanel';
import { HistoryPanel } from './panels/HistoryPanel';
import { NextRunsPanel } from './panels/NextRunsPanel';
import { TimingsPanel } from './panels/TimingsPanel';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusXLarge,
    color: '#ffffff',
    backgroundImage: 'linear-gradient(120deg, #0b4f96 0%, #0f6cbd 55%, #2f8cea 100%)',
    boxShadow: tokens.shadow4,
  },
  mark: {
    display: 'grid',
    placeItems: 'center',
    width: '48px',
    height: '48px',
    borderRadius: '12px',
    backgroundColor: 'rgba(255,255,255,0.96)',
    flexShrink: 0,
  },
  text: { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0 },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  lead: { opacity: 0.9 },
  ghost: {
    color: '#ffffff',
    backgroundColor: 'rgba(255,255,255,0.12)',
    border: '1px solid rgba(255,255,255,0.45)',
    ':hover': { color: '#ffffff', backgroundColor: 'rgba(255,255,255,0.22)' },
  },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  // Read from across a room: larger panel titles and health cells (HealthPanel's own wall style);
  // no CSS zoom, which the charts' size measuring does not follow.
  wall: { '& h2': { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700 } },
});

export default function DashboardPage(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const wall = params.get('tv') === '1';
  const refetchInterval = wall ? WALL_REFRESH_MS : undefined;
  return (
    <div className={mergeClasses(styles.page, wall && styles.wall)}>
      <header className={styles.header}>
        <div className={styles.mark}>
          <Logo size={34} />
        </div>
        <div className={styles.text}>
          <h1 className={styles.title}>
            {t('Welcome to Patrol')}
            {auth?.name ? `, ${auth.name}` : ''}
          </h1>
          <Text className={styles.lead} size={200}>
            {wall
              ? t('Wall screen: refreshes every 30 s, failing sites first.')
              : t('Is everything healthy? The checks, banks and deliveries at a glance.')}
          </Text>
        </div>
        {wall ? (
          <Button
            className={styles.ghost}
            icon={<FullScreenMaximizeRegular />}
            onClick={() => void document.documentElement.requestFullscreen?.().catch(() => {})}
          >
            {t('Full screen')}
          </Button>
        ) : (
          <Button className={styles.ghost} icon={<TvRegular />} onClick={() => navigate('/?tv=1')}>
            {t('Wall screen')}
          </Button>
        )}
      </header>
      <HealthPanel wall={wall} refetchInterval={refetchInterval} />
      <HistoryPanel refetchInterval={refetchInterval} />
      <div className={styles.grid}>
        <TimingsPanel refetchInterval={refetchInterval} />
        <NextRunsPanel refetchInterval={refetchInterval} />
        <BankPanel refetchInterval={refetchInterval} />
        <DeliveryPanel refetchInterval={refetchInterval} />
        {dashboardWidgets.map(({ id, component: Widget }) => (
          <Widget key={id} />
        ))}
      </div>
    </div>
  );
}
