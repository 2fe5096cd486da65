import {
  InteractionTag,
  InteractionTagPrimary,
  InteractionTagSecondary,
  makeStyles,
  TagGroup,
  tokens,
} from '@fluentui/react-components';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { TFunction } from 'i18next';
import { useT } from '@/i18n';
import { matchRoute, routeByName } from '../routes';
import { usePersistentState } from '../usePersistentState';

export const TABS_STORAGE_KEY = 'patrol.tabs';
const HOME_PATH = '/';

export interface PageTab {
  /** pathname: one tab per page (an operation detail per id). */
  path: string;
  /** pathname + search, restored when the tab is clicked. */
  to: string;
  name: string;
  params: Record<string, string>;
}

const useStyles = makeStyles({
  strip: {
    display: 'flex',
    alignItems: 'center',
    minHeight: '40px',
    paddingInline: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    overflowX: 'auto',
    scrollbarWidth: 'thin',
    flexShrink: 0,
  },
  group: { flexWrap: 'nowrap', gap: tokens.spacingHorizontalXS },
  tag: { flexShrink: 0 },
});

function tabTitle(t: TFunction, tab: PageTab): string {
  let title: string;
  try {
    title = t(routeByName(tab.name).title);
  } catch {
    title = tab.name;
  }
  const ids = Object.values(tab.params);
  return ids.length ? `${title} #${ids.join('/')}` : title;
}

/** Tabs of the pages opened in this browser; the home tab is pinned so there is always one. */
export function PageTabs(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [tabs, setTabs] = usePersistentState<PageTab[]>(TABS_STORAGE_KEY, []);

  useEffect(() => {
    const match = matchRoute(pathname);
    if (!match || match.def.noTab || match.def.layout === 'bare' || pathname === HOME_PATH) return;
    const to = `${pathname}${search}`;
    setTabs((current) => {
      const existing = current.find((tab) => tab.path === pathname);
      if (existing)
        return existing.to === to ? current : current.map((tab) => (tab === existing ? { ...tab, to } : tab));
      return [...current, { path: pathname, to, name: match.def.name, params: match.params }];
    });
  }, [pathname, search, setTabs]);

  // Tabs of screens removed since they were stored are dropped silently.
  const visible: PageTab[] = [
    { path: HOME_PATH, to: HOME_PATH, name: 'home', params: {} },
    ...tabs.filter((tab) => tab.path !== HOME_PATH && matchRoute(tab.path)),
  ];

  const close = (path: string) => {
    const index = visible.findIndex((tab) => tab.path === path);
    setTabs((current) => current.filter((tab) => tab.path !== path));
    if (path === pathname) navigate(visible[index - 1]?.to ?? HOME_PATH);
  };

  return (
    <div className={styles.strip}>
      <TagGroup
        className={styles.group}
        size="small"
        aria-label={t('Opened pages')}
        onDismiss={(_, data) => close(String(data.value))}
      >
        {visible.map((tab) => {
          const active = tab.path === pathname;
          const pinned = tab.path === HOME_PATH;
          return (
            <InteractionTag
              key={tab.path}
              value={tab.path}
              className={styles.tag}
              appearance={active ? 'brand' : 'outline'}
              shape="rounded"
            >
              <InteractionTagPrimary
                hasSecondaryAction={!pinned}
                aria-current={active ? 'page' : undefined}
                onClick={() => navigate(tab.to)}
              >
                {tabTitle(t, tab)}
              </InteractionTagPrimary>
              {pinned ? null : <InteractionTagSecondary aria-label={t('Close tab')} />}
            </InteractionTag>
          );
        })}
      </TagGroup>
    </div>
  );
}
