import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { QuestionCircleRegular, SettingsRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '@/app/auth';
import { Logo } from '@/app/Logo';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';
import { dashboardWidgets } from './dashboardWidgets';

const useStyles = makeStyles({
  hero: {
    position: 'relative',
    overflow: 'hidden',
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXXL,
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXXXL}`,
    borderRadius: tokens.borderRadiusXLarge,
    color: '#ffffff',
    backgroundImage: 'linear-gradient(120deg, #0b4f96 0%, #0f6cbd 55%, #2f8cea 100%)',
    boxShadow: tokens.shadow8,
    '@media (max-width: 720px)': { flexDirection: 'column', textAlign: 'center' },
  },
  rings: { position: 'absolute', right: '-60px', top: '-80px', opacity: 0.18, pointerEvents: 'none' },
  mark: {
    flexShrink: 0,
    display: 'grid',
    placeItems: 'center',
    width: '112px',
    height: '112px',
    borderRadius: '28px',
    backgroundColor: 'rgba(255,255,255,0.96)',
    boxShadow: tokens.shadow16,
  },
  text: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '640px' },
  title: {
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightSemibold,
  },
  lead: { fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400, opacity: 0.92 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalM, flexWrap: 'wrap' },
  ghost: {
    color: '#ffffff',
    backgroundColor: 'rgba(255,255,255,0.12)',
    border: '1px solid rgba(255,255,255,0.45)',
    ':hover': { color: '#ffffff', backgroundColor: 'rgba(255,255,255,0.22)' },
  },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
    gap: tokens.spacingHorizontalL,
    marginTop: tokens.spacingVerticalXL,
  },
});

export default function DashboardPage(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const auth = useAuth();
  const navigate = useNavigate();
  return (
    <>
      <section className={styles.hero} aria-labelledby="welcome-title">
        <svg className={styles.rings} width="420" height="420" viewBox="0 0 420 420" aria-hidden>
          {[60, 110, 160, 210].map((r) => (
            <circle key={r} cx="210" cy="210" r={r} fill="none" stroke="#fff" strokeWidth="2" />
          ))}
          <path d="M210 210 L210 0 A210 210 0 0 1 392 105 Z" fill="#fff" opacity="0.35" />
        </svg>
        <div className={styles.mark}>
          <Logo size={80} />
        </div>
        <div className={styles.text}>
          <h1 id="welcome-title" className={styles.title} style={{ margin: 0 }}>
            {t('Welcome to Patrol')}
            {auth?.name ? `, ${auth.name}` : ''}
          </h1>
          <Text className={styles.lead}>
            {t(
              'Register sites and their bot accounts, run checks in real browsers with recorded videos, watch bank accounts, and read every result in one place.',
            )}
          </Text>
          <div className={styles.actions}>
            <Button className={styles.ghost} icon={<QuestionCircleRegular />} onClick={() => navigate(pathOf('help'))}>
              {t('How Patrol works')}
            </Button>
            <Button className={styles.ghost} icon={<SettingsRegular />} onClick={() => navigate(pathOf('profile'))}>
              {t('My account')}
            </Button>
          </div>
        </div>
      </section>
      {dashboardWidgets.length ? (
        <section className={styles.figures} aria-label={t('Live figures')}>
          {dashboardWidgets.map(({ id, component: Widget }) => (
            <Widget key={id} />
          ))}
        </section>
      ) : null}
    </>
  );
}
