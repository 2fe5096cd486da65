import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  mergeClasses,
  NavCategory,
  NavCategoryItem,
  NavDrawer,
  NavDrawerBody,
  NavItem,
  NavSubItem,
  NavSubItemGroup,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { CircleSmallRegular } from '@fluentui/react-icons';
import { type MouseEvent, type ReactNode, useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useT } from '@/i18n';
import { buildMenu, type MenuNode, matchRoute, type RouteDef, readyRoutes } from '../routes';
import { usePersistentState } from '../usePersistentState';

export const useNavStyles = makeStyles({
  drawer: {
    width: '240px',
    minWidth: '240px',
    flexShrink: 0,
    height: '100%',
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  rail: {
    width: '52px',
    height: '100%',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalXS,
    paddingBlock: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground4,
    overflowY: 'auto',
    flexShrink: 0,
  },
  railLeft: { borderRight: `1px solid ${tokens.colorNeutralStroke2}` },
  railRight: { borderLeft: `1px solid ${tokens.colorNeutralStroke2}` },
  railButton: { width: '40px', height: '40px', minWidth: '40px', position: 'relative' },
  railSelected: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    color: tokens.colorBrandForeground1,
    '::before': {
      content: '""',
      position: 'absolute',
      left: '-5px',
      top: '10px',
      bottom: '10px',
      width: '3px',
      borderRadius: tokens.borderRadiusCircular,
      backgroundColor: tokens.colorCompoundBrandStroke,
    },
  },
});

function linkTo(navigate: (to: string) => void, path: string) {
  return (e: MouseEvent) => {
    // Plain left clicks stay in the app; modified clicks keep the browser's "open in new tab".
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(path);
  };
}

/** The route the current page belongs to in the menu (detail pages light up nothing). */
function useActiveRoute(): RouteDef | undefined {
  const { pathname } = useLocation();
  return matchRoute(pathname)?.def;
}

export function LeftNav({
  open,
  routeList = readyRoutes,
}: {
  open: boolean;
  routeList?: readonly RouteDef[];
}): ReactNode {
  const t = useT();
  const styles = useNavStyles();
  const navigate = useNavigate();
  const active = useActiveRoute();
  const menu = useMemo(() => buildMenu(routeList), [routeList]);
  const activeGroup = menu.find((n) => n.kind === 'group' && n.children.some((c) => c.route === active));
  const [openGroups, setOpenGroups] = usePersistentState<string[]>('patrol.nav.groups', []);

  // Opening a page by URL or tab reveals its group.
  useEffect(() => {
    if (activeGroup?.kind === 'group' && !openGroups.includes(activeGroup.group)) {
      setOpenGroups((g) => [...g, activeGroup.group]);
    }
  }, [activeGroup, openGroups, setOpenGroups]);

  if (!open) return <MiniNav menu={menu} active={active} />;

  return (
    <NavDrawer
      open
      type="inline"
      className={styles.drawer}
      selectedValue={active?.name ?? ''}
      selectedCategoryValue={activeGroup?.kind === 'group' ? activeGroup.group : undefined}
      openCategories={openGroups}
      onNavCategoryItemToggle={(_, data) =>
        setOpenGroups((g) =>
          g.includes(data.categoryValue ?? '')
            ? g.filter((v) => v !== data.categoryValue)
            : [...g, data.categoryValue ?? ''],
        )
      }
      aria-label={t('Main menu')}
    >
      <NavDrawerBody>
        {menu.map((node) =>
          node.kind === 'item' ? (
            <NavItem
              key={node.route.name}
              value={node.route.name}
              href={node.route.path}
              icon={node.icon ? <node.icon fontSize={20} /> : undefined}
              onClick={linkTo(navigate, node.route.path)}
            >
              {t(node.label)}
            </NavItem>
          ) : (
            <NavCategory key={node.group} value={node.group}>
              <NavCategoryItem icon={<node.icon fontSize={20} />}>{t(node.label)}</NavCategoryItem>
              <NavSubItemGroup>
                {node.children.map((leaf) => (
                  <NavSubItem
                    key={leaf.route.name}
                    value={leaf.route.name}
                    href={leaf.route.path}
                    onClick={linkTo(navigate, leaf.route.path)}
                  >
                    {t(leaf.label)}
                  </NavSubItem>
                ))}
              </NavSubItemGroup>
            </NavCategory>
          ),
        )}
      </NavDrawerBody>
    </NavDrawer>
  );
}

/** The "mini" drawer: icons only; a group opens its entries as a flyout menu. */
function MiniNav({ menu, active }: { menu: MenuNode[]; active?: RouteDef }): ReactNode {
  const t = useT();
  const styles = useNavStyles();
  const navigate = useNavigate();
  return (
    <nav className={mergeClasses(styles.rail, styles.railLeft)} aria-label={t('Main menu')}>
      {menu.map((node) => {
        if (node.kind === 'item') {
          const Icon = node.icon ?? CircleSmallRegular;
          return (
            <Tooltip key={node.route.name} content={t(node.label)} relationship="label" positioning="after">
              <Button
                appearance="subtle"
                className={mergeClasses(styles.railButton, node.route === active && styles.railSelected)}
                icon={<Icon />}
                aria-current={node.route === active ? 'page' : undefined}
                onClick={() => navigate(node.route.path)}
              />
            </Tooltip>
          );
        }
        const selected = node.children.some((c) => c.route === active);
        return (
          <Menu key={node.group} positioning="after-top" openOnHover hoverDelay={120}>
            <MenuTrigger disableButtonEnhancement>
              <Button
                appearance="subtle"
                className={mergeClasses(styles.railButton, selected && styles.railSelected)}
                icon={<node.icon />}
                aria-label={t(node.label)}
              />
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {node.children.map((leaf) => (
                  <MenuItem
                    key={leaf.route.name}
                    onClick={() => navigate(leaf.route.path)}
                    aria-current={leaf.route === active ? 'page' : undefined}
                  >
                    {t(leaf.label)}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
        );
      })}
    </nav>
  );
}
