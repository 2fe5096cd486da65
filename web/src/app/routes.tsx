// The screens, titles and menu places of the routes named in paths.ts. The router, the left menu,
// the super menu and the page tabs are all derived from this list. A screen that is not built yet
// has `ready: false` in paths.ts: it is neither routed nor in the menu; the issue that builds it
// sets `screen` here and flips the flag there.
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
  KeyMultipleFilled,
  KeyMultipleRegular,
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
  ShieldTaskFilled,
  ShieldTaskRegular,
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
import { type RouteName, routePaths } from './paths';

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
const ShieldTaskIcon = bundleIcon(ShieldTaskFilled, ShieldTaskRegular);
const KeyMultipleIcon = bundleIcon(KeyMultipleFilled, KeyMultipleRegular);
const TimerIcon = bundleIcon(TimerFilled, TimerRegular);

export type Layout = 'shell' | 'bare';

export interface RouteDef {
  /** Unique; also the page tab id root. Route, query key and resource share one name. */
  name: RouteName;
  /** Absolute path; every `:param` in Patrol is a positive integer id. */
  path: string;
  /** Page/tab title (English text, the i18n key). */
  title: string;
  /** Code-split with `lazyScreen` unless tiny and needed at once (error pages). */
  screen?: ComponentType | LazyExoticComponent<ComponentType>;
  /** False until the screen exists: not routed, not in a menu (declared in paths.ts). */
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
  /**
   * A query flag (`?{flag}=1`) that shows the page alone, without menus or tabs: the home page's
   * wall screen (`frame: 'wall'`, padded on the grey background) or a report's print view
   * (`frame: 'paper'`, nothing around it).
   */
  alone?: { flag: string; frame: 'wall' | 'paper' };
}

/** What this module declares; path and readiness come from paths.ts. */
type RouteSpec = Omit<RouteDef, 'path' | 'ready'>;

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
const logRoute = (name: RouteName, title: string, label: string, kind: LogKind): RouteSpec => ({
  name,
  title,
  screen: lazyScreen(() => import('@/features/logs/LogPage').then((m) => ({ default: m.logPage(kind) }))),
  menu: { group: 'Check Log', label },
});

/** In menu order: a group's header appears where its first entry is declared. */
const routeSpecs: readonly RouteSpec[] = [
  {
    name: 'home',
    title: 'Home',
    screen: lazyScreen(() => import('@/features/dashboard/DashboardPage')),
    menu: { label: 'Home' },
    icon: HomeIcon,
    alone: { flag: 'tv', frame: 'wall' },
  },
  {
    name: 'sites',
    title: 'Sites',
    screen: lazyScreen(() => import('@/features/sites/SitesPage')),
    menu: { group: 'Site', label: 'Site' },
  },
  {
    name: 'siteAccounts',
    title: 'Account',
    screen: lazyScreen(() => import('@/features/sites/SiteAccountsPage')),
    menu: { group: 'Site', label: 'Account' },
  },
  {
    name: 'operations',
    title: 'Operations',
    screen: lazyScreen(() => import('@/features/operations/OperationsPage')),
    menu: { label: 'Operation' },
    icon: PlayIcon,
  },
  {
    name: 'operationRecords',
    title: 'Operation Records',
    screen: lazyScreen(() => import('@/features/operations/OperationRecordsPage')),
  },
  {
    name: 'operationDetail',
    title: 'Operation Detail',
    screen: lazyScreen(() => import('@/features/operations/OperationDetailPage')),
  },
  {
    name: 'autoCheckRules',
    title: 'Auto Check Rules',
    screen: lazyScreen(() => import('@/features/autoCheck/RulesPage')),
    menu: { group: 'Auto Check', label: 'Rules' },
  },
  {
    name: 'autoCheckRuleDetail',
    title: 'Rule Detail',
    screen: lazyScreen(() => import('@/features/autoCheck/RuleDetailPage')),
  },
  {
    name: 'autoCheckNew',
    title: 'New Rule',
    screen: lazyScreen(() => import('@/features/autoCheck/NewRulePage')),
  },
  {
    name: 'autoCheckLogs',
    title: 'Auto Check Logs',
    screen: lazyScreen(() => import('@/features/autoCheck/AutoLogsPage')),
    menu: { group: 'Auto Check', label: 'Auto Logs' },
  },
  {
    name: 'autoCheckCalendar',
    title: 'Schedule Calendar',
    screen: lazyScreen(() => import('@/features/autoCheck/ScheduleCalendarPage')),
  },
  {
    name: 'maintenance',
    title: 'Maintenance windows',
    screen: lazyScreen(() => import('@/features/maintenance/MaintenancePage')),
    menu: { group: 'Auto Check', label: 'Maintenance' },
  },
  {
    name: 'tasks',
    title: 'Tasks',
    screen: lazyScreen(() => import('@/features/checks/TasksPage')),
    menu: { group: 'Task', label: 'Task' },
  },
  {
    name: 'subtasks',
    title: 'Sub Tasks',
    screen: lazyScreen(() => import('@/features/checks/SubtasksPage')),
    menu: { group: 'Task', label: 'SubTask' },
  },
  {
    name: 'subtaskCompare',
    title: 'Compare with last pass',
    screen: lazyScreen(() => import('@/features/checks/SubtaskComparePage')),
  },
  logRoute('logLogin', 'Log Login', 'Login', 'login'),
  logRoute('logPlaceBets', 'Log Place Bet', 'Place Bet', 'place-bets'),
  logRoute('logDeleteBets', 'Log Delete Bet', 'Delete Bet', 'delete-bet'),
  logRoute('logFixBet', 'Log Fix Bet', 'Fix Bet', 'fix-bet'),
  logRoute('logOutSetting3', 'Log Out Setting3', 'Out Setting3', 'out-setting-3'),
  logRoute('logDeleteBetOut', 'Log Delete Bet Out', 'Delete Bet Out', 'delete-bet-out'),
  logRoute('logOutSetting3Status', 'Log Out Setting3 Status', 'Out Setting3 Status', 'out-setting-3-status'),
  logRoute('logAgentSetting', 'Log Agent Setting', 'Agent Setting', 'agent-setting'),
  {
    name: 'browserLogs',
    title: 'Browser Log',
    screen: lazyScreen(() => import('@/features/browser/BrowserLogsPage')),
    menu: { group: 'Browser History', label: 'Log' },
  },
  {
    name: 'browserVideos',
    title: 'Browser Video',
    screen: lazyScreen(() => import('@/features/browser/BrowserVideosPage')),
    menu: { group: 'Browser History', label: 'Video' },
  },
  {
    name: 'bankAccounts',
    title: 'Bank Account',
    screen: lazyScreen(() => import('@/features/bank/BankAccountsPage')),
    menu: { group: 'Bank Monitor', label: 'Account' },
  },
  {
    name: 'bankAccountDetail',
    title: 'Bank Account Detail',
    screen: lazyScreen(() => import('@/features/bank/BankAccountDetailPage')),
  },
  {
    name: 'bankSubAccounts',
    title: 'Bank Sub Account',
    screen: lazyScreen(() => import('@/features/bank/SubAccountsPage')),
    menu: { group: 'Bank Monitor', label: 'SubAccount' },
  },
  {
    name: 'bankStatements',
    title: 'Bank Statement',
    screen: lazyScreen(() => import('@/features/bank/StatementsPage')),
    menu: { group: 'Bank Monitor', label: 'Logs Statement' },
  },
  {
    name: 'bankBalanceStat',
    title: 'Bank Balance Stat',
    screen: lazyScreen(() => import('@/features/bank/BalanceStatsPage')),
    menu: { group: 'Bank Monitor', label: 'Logs Balance Stat' },
  },
  {
    name: 'bankAlertRules',
    title: 'Alert rules',
    screen: lazyScreen(() => import('@/features/bankAlertRules/AlertRulesPage')),
    menu: { group: 'Bank Monitor', label: 'Alert rules' },
  },
  {
    name: 'notifications',
    title: 'Notifications',
    screen: lazyScreen(() => import('@/features/notifications/NotificationsPage')),
    menu: { group: 'Message', label: 'Notification' },
  },
  {
    name: 'notificationDetail',
    title: 'Notification Detail',
    screen: lazyScreen(() => import('@/features/notifications/NotificationDetailPage')),
  },
  {
    name: 'notificationsBank',
    title: 'Notifications Bank',
    screen: lazyScreen(() => import('@/features/bankNotifications/BankNotificationsPage')),
    menu: { group: 'Message', label: 'NotificationBank' },
  },
  {
    name: 'incidents',
    title: 'Incidents',
    screen: lazyScreen(() => import('@/features/incidents/IncidentsPage')),
    menu: { group: 'Message', label: 'Incident' },
  },
  {
    name: 'incidentDetail',
    title: 'Incident Detail',
    screen: lazyScreen(() => import('@/features/incidents/IncidentDetailPage')),
  },
  {
    name: 'reports',
    title: 'Reports',
    screen: lazyScreen(() => import('@/features/reports/ReportsPage')),
    menu: { group: 'Message', label: 'Reports' },
  },
  {
    name: 'reportDetail',
    title: 'Report',
    screen: lazyScreen(() => import('@/features/reports/ReportDetailPage')),
    alone: { flag: 'print', frame: 'paper' },
  },
  {
    name: 'profile',
    title: 'Profile',
    screen: lazyScreen(() => import('@/features/auth/ProfilePage')),
    menu: { group: 'Setting', label: 'Account' },
  },
  {
    name: 'password',
    title: 'Edit Password',
    screen: lazyScreen(() => import('@/features/auth/PasswordPage')),
    menu: { group: 'Setting', label: 'Password' },
  },
  {
    name: 'security',
    title: 'Security',
    screen: lazyScreen(() => import('@/features/auth/SecurityPage')),
    menu: { group: 'Setting', label: 'Security' },
  },
  {
    name: 'help',
    title: 'Help',
    screen: lazyScreen(() => import('@/features/help/HelpPage')),
    menu: { label: 'Help' },
    icon: QuestionCircleIcon,
  },
  {
    name: 'superUsers',
    title: 'User management',
    screen: lazyScreen(() => import('@/features/super/UsersPage')),
    super: true,
    icon: PeopleTeamIcon,
  },
  {
    name: 'superTokens',
    title: 'API tokens',
    screen: lazyScreen(() => import('@/features/apiTokens/ApiTokensPage')),
    super: true,
    icon: KeyMultipleIcon,
  },
  {
    name: 'superTg',
    title: 'TG notification',
    screen: lazyScreen(() => import('@/features/super/TgSettingsPage')),
    super: true,
    icon: SendIcon,
  },
  {
    name: 'superConfig',
    title: 'Config',
    screen: lazyScreen(() => import('@/features/super/SystemConfigPage')),
    super: true,
    icon: SettingsIcon,
  },
  {
    name: 'superAudit',
    title: 'Audit log',
    screen: lazyScreen(() => import('@/features/super/AuditPage')),
    super: true,
    icon: ShieldTaskIcon,
  },
  {
    name: 'login',
    title: 'Login',
    screen: lazyScreen(() => import('@/features/auth/LoginPage')),
    layout: 'bare',
    public: true,
    noTab: true,
  },
  {
    name: 'forbidden',
    title: 'Forbidden',
    screen: ForbiddenPage,
    noTab: true,
  },
  {
    name: 'notFound',
    title: 'Not Found',
    screen: NotFoundPage,
    noTab: true,
  },
  {
    name: 'serverError',
    title: 'Server Error',
    screen: ServerErrorPage,
    noTab: true,
  },
];

export const routes: readonly RouteDef[] = routeSpecs.map((spec) => ({ ...spec, ...routePaths[spec.name] }));

export const readyRoutes: readonly RouteDef[] = routes.filter((r) => r.ready && r.screen);

const byName = new Map<string, RouteDef>(routes.map((r) => [r.name, r]));

export function routeByName(name: string): RouteDef {
  const def = byName.get(name);
  if (!def) throw new Error(`Unknown route ${name}`);
  return def;
}

/** Ids in paths are positive integers; anything else is not a page. */
export function hasNumericParams(params: Readonly<Record<string, string | undefined>>): boolean {
  return Object.entries(params).every(([key, v]) => key === '*' || (v !== undefined && /^[1-9]\d*$/.test(v)));
}

/** The routed (ready) definition a pathname shows, with its params; static paths win over params. */
export function matchRoute(
  pathname: string,
  list: readonly RouteDef[] = readyRoutes,
): { def: RouteDef; params: Record<string, string> } | null {
  const candidates = list
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
