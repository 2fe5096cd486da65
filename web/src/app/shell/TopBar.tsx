import { Button, makeStyles, Text, Tooltip, tokens } from '@fluentui/react-components';
import { NavigationRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useT } from '@/i18n';
import { Logo } from '../Logo';
import { LocaleSwitcher } from './LocaleSwitcher';
import { UserMenu } from './UserMenu';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    height: '48px',
    paddingInline: tokens.spacingHorizontalS,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    boxShadow: tokens.shadow2,
    position: 'relative',
    zIndex: 2,
    flexShrink: 0,
  },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    color: tokens.colorNeutralForeground1,
    textDecorationLine: 'none',
    marginLeft: tokens.spacingHorizontalXS,
  },
  product: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, letterSpacing: '0.2px' },
  divider: {
    width: '1px',
    height: '20px',
    backgroundColor: tokens.colorNeutralStroke2,
    marginInline: tokens.spacingHorizontalXS,
  },
  tagline: { color: tokens.colorNeutralForeground3 },
  spacer: { flexGrow: 1 },
});

export function TopBar({ onToggleMenu, menuOpen }: { onToggleMenu: () => void; menuOpen: boolean }): ReactNode {
  const styles = useStyles();
  const t = useT();
  return (
    <header className={styles.bar}>
      <Tooltip content={menuOpen ? t('Collapse menu') : t('Expand menu')} relationship="label">
        <Button
          appearance="subtle"
          icon={<NavigationRegular />}
          onClick={onToggleMenu}
          aria-expanded={menuOpen}
          aria-label={t('Toggle menu')}
        />
      </Tooltip>
      <Link to="/" className={styles.brand}>
        <Logo size={26} />
        <span className={styles.product}>Patrol</span>
      </Link>
      <span className={styles.divider} aria-hidden />
      <Text size={200} className={styles.tagline}>
        {t('Site checks and bank monitoring')}
      </Text>
      <span className={styles.spacer} />
      <LocaleSwitcher />
      <UserMenu />
    </header>
  );
}
