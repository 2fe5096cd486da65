import {
  Button,
  makeStyles,
  mergeClasses,
  NavDrawer,
  NavDrawerBody,
  NavDrawerHeader,
  NavItem,
  Text,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { PanelRightContractRegular, PanelRightExpandRegular, ShieldPersonRegular } from '@fluentui/react-icons';
import { type ReactNode, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useT } from '@/i18n';
import { isSuper, useAuth } from '../auth';
import { buildSuperMenu, matchRoute, type RouteDef, readyRoutes } from '../routes';
import { useNavStyles } from './LeftNav';

const useStyles = makeStyles({
  drawer: {
    width: '220px',
    minWidth: '220px',
    flexShrink: 0,
    height: '100%',
    borderLeft: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  // Title and collapse button on one line (Fluent's drawer header stacks its children).
  header: {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalS,
  },
  title: { flexGrow: 1, display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
});

/** Right-hand super menu (User management, TG notification, Config); absent for operators. */
export function SuperNav({
  open,
  onToggle,
  routeList = readyRoutes,
}: {
  open: boolean;
  onToggle: () => void;
  routeList?: readonly RouteDef[];
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const navStyles = useNavStyles();
  const auth = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const items = useMemo(() => buildSuperMenu(isSuper(auth), routeList), [auth, routeList]);
  const active = matchRoute(pathname)?.def;
  if (items.length === 0) return null;

  if (!open) {
    return (
      <nav className={mergeClasses(navStyles.rail, navStyles.railRight)} aria-label={t('Super menu')}>
        <Tooltip content={t('Expand super menu')} relationship="label" positioning="before">
          <Button
            appearance="subtle"
            className={navStyles.railButton}
            icon={<PanelRightExpandRegular />}
            onClick={onToggle}
          />
        </Tooltip>
        {items.map((item) => {
          const Icon = item.icon ?? ShieldPersonRegular;
          const selected = item.route.name === active?.name;
          return (
            <Tooltip key={item.route.name} content={t(item.label)} relationship="label" positioning="before">
              <Button
                appearance="subtle"
                className={mergeClasses(navStyles.railButton, selected && navStyles.railSelected)}
                icon={<Icon />}
                aria-current={selected ? 'page' : undefined}
                onClick={() => navigate(item.route.path)}
              />
            </Tooltip>
          );
        })}
      </nav>
    );
  }

  return (
    <NavDrawer
      open
      type="inline"
      position="end"
      className={styles.drawer}
      selectedValue={active?.name ?? ''}
      aria-label={t('Super menu')}
    >
      <NavDrawerHeader className={styles.header}>
        <span className={styles.title}>
          <ShieldPersonRegular fontSize={20} />
          <Text weight="semibold">{t('Super')}</Text>
        </span>
        <Tooltip content={t('Collapse super menu')} relationship="label">
          <Button appearance="subtle" icon={<PanelRightContractRegular />} onClick={onToggle} />
        </Tooltip>
      </NavDrawerHeader>
      <NavDrawerBody>
        {items.map((item) => {
          const Icon = item.icon ?? ShieldPersonRegular;
          return (
            <NavItem
              key={item.route.name}
              value={item.route.name}
              href={item.route.path}
              icon={<Icon fontSize={20} />}
              onClick={(e) => {
                e.preventDefault();
                navigate(item.route.path);
              }}
            >
              {t(item.label)}
            </NavItem>
          );
        })}
      </NavDrawerBody>
    </NavDrawer>
  );
}
