// Every route of the spec (section 2), declared once. The router, the left menu, the super menu
// and the page tabs are all derived from this list. A screen that is not built yet has
// `ready: false`: it is neither routed nor in the menu; the issue that builds it sets `screen`
// and flips the flag.
import {
  AlertFilled,
  AlertRegular,
  BuildingBankFilled,
  BuildingBankRegular,
  bundleIcon,
  ClipboardTaskListLtrFilled,
  ClipboardTaskListLtrRegular,
  DocumentBulletListFilled,
  DocumentBulletListRegular,
  type FluentIcon,
  GlobeFilled,
  GlobeRegular,
  HistoryFilled,
  HistoryRegular,
  HomeFilled,
  HomeRegular,
  PeopleTeamFilled,
  PeopleTeamRegular,
  PlayFilled,
  PlayRegular,
  QuestionCircleFilled,
  QuestionCircleRegular,
  SendFilled,
  SendRegular,
  SettingsFilled,
  SettingsRegular,
  TimerFilled,
  TimerRegular,
} from '@fluentui/react-icons';
import type { LogKind } from '@shared/schemas/checks';
import type { ComponentType, LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import ForbiddenPage from '@/features/errors/ForbiddenPage';
import NotFoundPage from '@/features/errors/NotFoundPage';
import ServerErrorPage from '@/features/errors/ServerErrorPage';
import { lazyScreen } from './lazyScreen';

// Filled when selected, regular otherwise (Fluent's nav swaps them).
const AlertIcon = bundleIcon(AlertFilled, AlertRegular);
const BuildingBankIcon = bundleIcon(BuildingBankFilled, BuildingBankRegular);
const ClipboardTaskListLtrIcon = bundleIcon(ClipboardTaskListLtrFilled, ClipboardTaskListLtrRegular);
const DocumentBulletListIcon = bundleIcon(DocumentBulletListFilled, DocumentBulletListRegular);
const GlobeIcon = bundleIcon(GlobeFilled, GlobeRegular);
const HistoryIcon = bundleIcon(HistoryFilled, HistoryRegular);
const HomeIcon = bundleIcon(HomeFilled, HomeRegular);
const PeopleTeamIcon = bundleIcon(PeopleTeamFilled, PeopleTeamRegular);
const PlayIcon = bundleIcon(PlayFilled, PlayRegular);
const QuestionCircleIcon = bundleIcon(QuestionCircleFilled, QuestionCircleRegular);
const SendIcon = bundleIcon(SendFilled, SendRegular);
const SettingsIcon = bundleIcon(SettingsFilled, SettingsRegular);
const TimerIcon = bundleIcon(TimerFilled, TimerRegular);

export type Layout = 'shell' | 'bare';

export interface RouteDef {
  /** Unique; also the page tab id root. Route, query key and resource share one name. */
  name: string;
  /** Absolute path; every `:param` in Patrol is a positive integer id. */
  path: string;
  /** Page/tab title (English text, the i18n key). */
  title: string;
  /** Code-split with `lazyScreen` unless tiny and needed at once (error pages). */
  screen?: ComponentType | LazyExoticComponent<ComponentType>;
  /** False until the screen exists: not routed, not in a menu. */
  ready: boolean;
  /** Left menu entry; `group` nests it under a group header. */
  menu?: { group?: MenuGroup; label: string };
  icon?: FluentIcon;
  /** Lives in the right-hand super menu; only super users see and open it. */
  super?: boolean;
  /** 'bare' pages render without the shell (login). Default 'shell'. */
  layout?: Layout;
  /** Reachable without a login. */
  public?: boolean;
  /** Not kept as a page tab. */
  noTab?: boolean;
}

export const menuGroups = {
  Site: { label: 'Site', icon: GlobeIcon },
  'Auto Check': { label: 'Auto Check', icon: TimerIcon },
  Task: { label: 'Task', icon: ClipboardTaskListLtrIcon },
  'Check Log': { label: 'Check Log', icon: DocumentBulletListIcon },
  'Browser History': { label: 'Browser History', icon: HistoryIcon },
  'Bank Monitor': { label: 'Bank Monitor', icon: BuildingBankIcon },
  Message: { label: 'Message', icon: AlertIcon },
  Setting: { label: 'Setting', icon: SettingsIcon },
} as const satisfies Record<string, { label: string; icon: FluentIcon }>;
export type MenuGroup = keyof typeof menuGroups;

/** A check log table; `kind` is its list on the wire (GET /check/results/{kind}). */
const logRoute = (name: string, slug: string, title: string, label: string, kind: LogKind): RouteDef => ({
  name,
  path: `/logs/${slug}`,
  title,
  ready: true,
  screen: lazyScreen(() => import('@/features/logs/LogPage').then((m) => ({ default: m.logPage(kind) }))),
  menu: { group: 'Check Log', label },
});

/** In menu order: a group's header appears where its first entry is declared. */
export const routes: readonly RouteDef[] = [
  {
    name: 'home',
    path: '/',
    title: 'Home',
    ready: true,
    screen: lazyScreen(() => import('@/features/dashboard/DashboardPage')),
    menu: { label: 'Home' },
    icon: HomeIcon,
  },
  {
    name: 'sites',
    path: '/sites',
    title: 'Sites',
    ready: true,
    screen: lazyScreen(() => import('@/features/sites/SitesPage')),
    menu: { group: 'Site', label: 'Site' },
  },
  {
    name: 'siteAccounts',
    path: '/sites/accounts',
    title: 'Account',
    ready: true,
    screen: lazyScreen(() => import('@/features/sites/SiteAccountsPage')),
    menu: { group: 'Site', label: 'Account' },
  },
  {
    name: 'operations',
    path: '/operations',
    title: 'Operations',
    ready: true,
    screen: lazyScreen(() => import('@/features/operations/OperationsPage')),
    menu: { label: 'Operation' },
    icon: PlayIcon,
  },
  {
    name: 'operationRecords',
    path: '/operations/records',
    title: 'Operation Records',
    ready: true,
    screen: lazyScreen(() => import('@/features/operations/OperationRecordsPage')),
  },
  {
    name: 'operationDetail',
    path: '/operations/:operationID',
    title: 'Operation Detail',
    ready: true,
    screen: lazyScreen(() => import('@/features/operations/OperationDetailPage')),
  },
  {
    name: 'autoCheckRules',
    path: '/auto-checks/rules',
    title: 'Auto Check Rules',
    ready: false,
    menu: { group: 'Auto Check', label: 'Rules' },
  },
  { name: 'autoCheckRuleDetail', path: '/auto-checks/rules/:ruleID', title: 'Rule Detail', ready: false },
  { name: 'autoCheckNew', path: '/auto-checks/new', title: 'New Rule', ready: false },
  {
    name: 'autoCheckLogs',
    path: '/auto-checks/logs',
    title: 'Auto Check Logs',
    ready: false,
    menu: { group: 'Auto Check', label: 'Auto Logs' },
  },
  {
    name: 'tasks',
    path: '/tasks',
    title: 'Tasks',
    ready: true,
    screen: lazyScreen(() => import('@/features/checks/TasksPage')),
    menu: { group: 'Task', label: 'Task' },
  },
  {
    name: 'subtasks',
    path: '/tasks/subtasks',
    title: 'Sub Tasks',
    ready: true,
    screen: lazyScreen(() => import('@/features/checks/SubtasksPage')),
    menu: { group: 'Task', label: 'SubTask' },
  },
  logRoute('logLogin', 'login', 'Log Login', 'Login', 'login'),
  logRoute('logPlaceBets', 'place-bets', 'Log Place Bet', 'Place Bet', 'place-bets'),
  logRoute('logDeleteBets', 'delete-bets', 'Log Delete Bet', 'Delete Bet', 'delete-bet'),
  logRoute('logFixBet', 'fix-bet', 'Log Fix Bet', 'Fix Bet', 'fix-bet'),
  logRoute('logOutSetting3', 'out-setting-3', 'Log Out Setting3', 'Out Setting3', 'out-setting-3'),
  logRoute('logDeleteBetOut', 'delete-bet-out', 'Log Delete Bet Out', 'Delete Bet Out', 'delete-bet-out'),
  logRoute(
    'logOutSetting3Status',
    'out-setting-3-status',
    'Log Out Setting3 Status',
    'Out Setting3 Status',
    'out-setting-3-status',
  ),
  logRoute('logAgentSetting', 'agent-setting', 'Log Agent Setting', 'Agent Setting', 'agent-setting'),
  {
    name: 'browserLogs',
    path: '/browsers/logs',
    title: 'Browser Log',
    ready: true,
    screen: lazyScreen(() => import('@/features/browser/BrowserLogsPage')),
    menu: { group: 'Browser History', label: 'Log' },
  },
  {
    name: 'browserVideos',
    path: '/browsers/videos',
    title: 'Browser Video',
    ready: true,
    screen: lazyScreen(() => import('@/features/browser/BrowserVideosPage')),
    menu: { group: 'Browser History', label: 'Video' },
  },
  {
    name: 'bankAccounts',
    path: '/bank/accounts',
    title: 'Bank Account',
    ready: false,
    menu: { group: 'Bank Monitor', label: 'Account' },
  },
  { name: 'bankAccountDetail', path: '/bank/accounts/:accountID', title: 'Bank Account Detail', ready: false },
  {
    name: 'bankSubAccounts',
    path: '/bank/sub-accounts',
    title: 'Bank Sub Account',
    ready: false,
    menu: { group: 'Bank Monitor', label: 'SubAccount' },
  },
  {
    name: 'bankStatements',
    path: '/bank/statements',
    title: 'Bank Statement',
    ready: false,
    menu: { group: 'Bank Monitor', label: 'Logs Statement' },
  },
  {
    name: 'bankBalanceStat',
    path: '/bank/balance-stat',
    title: 'Bank Balance Stat',
    ready: false,
    menu: { group: 'Bank Monitor', label: 'Logs Balance Stat' },
  },
  {
    name: 'notifications',
    path: '/notifications/notifications',
    title: 'Notifications',
    ready: true,
    screen: lazyScreen(() => import('@/features/notifications/NotificationsPage')),
    menu: { group: 'Message', label: 'Notification' },
  },
  {
    name: 'notificationDetail',
    path: '/notifications/:notificationID',
    title: 'Notification Detail',
    ready: true,
    screen: lazyScreen(() => import('@/features/notifications/NotificationDetailPage')),
  },
  {
    name: 'notificationsBank',
    path: '/notifications/notifications-bank',
    title: 'Notifications Bank',
    ready: false,
    menu: { group: 'Message', label: 'NotificationBank' },
  },
  {
    name: 'profile',
    path: '/setting/profile',
    title: 'Profile',
    ready: true,
    screen: lazyScreen(() => import('@/features/auth/ProfilePage')),
    menu: { group: 'Setting', label: 'Account' },
  },
  {
    name: 'password',
    path: '/setting/password',
    title: 'Edit Password',
    ready: true,
    screen: lazyScreen(() => import('@/features/auth/PasswordPage')),
    menu: { group: 'Setting', label: 'Password' },
  },
  {
    name: 'help',
    path: '/help',
    title: 'Help',
    ready: true,
    screen: lazyScreen(() => import('@/features/help/HelpPage')),
    menu: { label: 'Help' },
    icon: QuestionCircleIcon,
  },
  {
    name: 'superUsers',
    path: '/super/users/users',
    title: 'User management',
    ready: true,
    screen: lazyScreen(() => import('@/features/super/UsersPage')),
    super: true,
    icon: PeopleTeamIcon,
  },
  {
    name: 'superTg',
    path: '/super/notification/tg',
    title: 'TG notification',
    ready: false,
    super: true,
    icon: SendIcon,
  },
  {
    name: 'superConfig',
    path: '/super/system/config',
    title: 'Config',
    ready: true,
    screen: lazyScreen(() => import('@/features/super/SystemConfigPage')),
    super: true,
    icon: SettingsIcon,
  },
  {
    name: 'login',
    path: '/auth/login',
    title: 'Login',
    ready: true,
    screen: lazyScreen(() => import('@/features/auth/LoginPage')),
    layout: 'bare',
    public: true,
    noTab: true,
  },
  {
    name: 'forbidden',
    path: '/403',
    title: 'Forbidden',
    ready: true,
    screen: ForbiddenPage,
    noTab: true,
  },
  {
    name: 'notFound',
    path: '/404',
    title: 'Not Found',
    ready: true,
    screen: NotFoundPage,
    noTab: true,
  },
  {
    name: 'serverError',
    path: '/500',
    title: 'Server Error',
    ready: true,
    screen: ServerErrorPage,
    noTab: true,
  },
];

export const readyRoutes: readonly RouteDef[] = routes.filter((r) => r.ready && r.screen);

const byName = new Map(routes.map((r) => [r.name, r]));

export function routeByName(name: string): RouteDef {
  const def = byName.get(name);
  if (!def) throw new Error(`Unknown route ${name}`);
  return def;
}

/** `pathOf('operationDetail', { operationID: 12 })` -> '/operations/12'. */
export function pathOf(name: string, params: Record<string, string | number> = {}): string {
  return routeByName(name).path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Missing param ${key} for route ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Ids in paths are positive integers; anything else is not a page. */
export function hasNumericParams(params: Readonly<Record<string, string | undefined>>): boolean {
  return Object.entries(params).every(([key, v]) => key === '*' || (v !== undefined && /^[1-9]\d*$/.test(v)));
}

/** The routed (ready) definition a pathname shows, with its params; static paths win over params. */
export function matchRoute(pathname: string): { def: RouteDef; params: Record<string, string> } | null {
  const candidates = readyRoutes
    .map((def) => ({ def, m: matchPath({ path: def.path, end: true }, pathname) }))
    .filter((c) => c.m !== null);
  candidates.sort((a, b) => paramCount(a.def.path) - paramCount(b.def.path));
  const best = candidates[0];
  if (!best?.m) return null;
  return { def: best.def, params: best.m.params as Record<string, string> };
}

function paramCount(path: string): number {
  return (path.match(/:/g) ?? []).length;
}

export interface MenuLeaf {
  kind: 'item';
  route: RouteDef;
  label: string;
  icon?: FluentIcon;
}
export interface MenuBranch {
  kind: 'group';
  group: MenuGroup;
  label: string;
  icon: FluentIcon;
  children: MenuLeaf[];
}
export type MenuNode = MenuLeaf | MenuBranch;

/** The left menu tree: ready, non-super routes, grouped as declared; empty groups are hidden. */
export function buildMenu(list: readonly RouteDef[] = readyRoutes): MenuNode[] {
  const tree: MenuNode[] = [];
  const branches = new Map<MenuGroup, MenuBranch>();
  for (const route of list) {
    if (!route.menu || route.super || !route.ready || !route.screen) continue;
    const leaf: MenuLeaf = { kind: 'item', route, label: route.menu.label, icon: route.icon };
    const group = route.menu.group;
    if (!group) {
      tree.push(leaf);
      continue;
    }
    let branch = branches.get(group);
    if (!branch) {
      branch = { kind: 'group', group, label: menuGroups[group].label, icon: menuGroups[group].icon, children: [] };
      branches.set(group, branch);
      tree.push(branch);
    }
    branch.children.push(leaf);
  }
  return tree;
}

/** The right-hand super menu; empty for anyone who is not a super user. */
export function buildSuperMenu(isSuperUser: boolean, list: readonly RouteDef[] = readyRoutes): MenuLeaf[] {
  if (!isSuperUser) return [];
  return list
    .filter((r) => r.super && r.ready && r.screen)
    .map((route) => ({ kind: 'item', route, label: route.title, icon: route.icon }));
}
