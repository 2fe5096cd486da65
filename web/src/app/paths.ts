// Every route name and path of the spec (section 2), and whether its screen exists. Pages import
// `pathOf` from here, and the route table (routes.tsx) imports the pages: keeping the paths apart
// is what keeps that pair free of an import cycle. A route with `ready: false` has no screen yet,
// so `pathOf` refuses its name at compile time rather than linking to the 404 page.

export const routePaths = {
  home: { path: '/', ready: true },
  sites: { path: '/sites', ready: true },
  siteAccounts: { path: '/sites/accounts', ready: true },
  operations: { path: '/operations', ready: true },
  operationRecords: { path: '/operations/records', ready: true },
  operationDetail: { path: '/operations/:operationID', ready: true },
  autoCheckRules: { path: '/auto-checks/rules', ready: true },
  autoCheckRuleDetail: { path: '/auto-checks/rules/:ruleID', ready: true },
  autoCheckNew: { path: '/auto-checks/new', ready: true },
  autoCheckLogs: { path: '/auto-checks/logs', ready: true },
  tasks: { path: '/tasks', ready: true },
  subtasks: { path: '/tasks/subtasks', ready: true },
  /** Beyond the spec's routes: a subtask beside the last pass of its (site, process, mode) (issue 26). */
  subtaskCompare: { path: '/tasks/subtasks/:subtaskID/compare', ready: true },
  logLogin: { path: '/logs/login', ready: true },
  logPlaceBets: { path: '/logs/place-bets', ready: true },
  logDeleteBets: { path: '/logs/delete-bets', ready: true },
  logFixBet: { path: '/logs/fix-bet', ready: true },
  logOutSetting3: { path: '/logs/out-setting-3', ready: true },
  logDeleteBetOut: { path: '/logs/delete-bet-out', ready: true },
  logOutSetting3Status: { path: '/logs/out-setting-3-status', ready: true },
  logAgentSetting: { path: '/logs/agent-setting', ready: true },
  browserLogs: { path: '/browsers/logs', ready: true },
  browserVideos: { path: '/browsers/videos', ready: true },
  bankAccounts: { path: '/bank/accounts', ready: true },
  bankAccountDetail: { path: '/bank/accounts/:accountID', ready: true },
  bankSubAccounts: { path: '/bank/sub-accounts', ready: true },
  bankStatements: { path: '/bank/statements', ready: true },
  bankBalanceStat: { path: '/bank/balance-stat', ready: true },
  /** Alert rules on bank figures (issue 45). */
  bankAlertRules: { path: '/bank/alert-rules', ready: true },
  notifications: { path: '/notifications/notifications', ready: true },
  notificationDetail: { path: '/notifications/:notificationID', ready: true },
  notificationsBank: { path: '/notifications/notifications-bank', ready: true },
  incidents: { path: '/incidents', ready: true },
  incidentDetail: { path: '/incidents/:incidentID', ready: true },
  reports: { path: '/reports', ready: true },
  /** `?print=1`: the page alone, laid out for A4, which the PDF printer opens (issue 46). */
  reportDetail: { path: '/reports/:reportID', ready: true },
  profile: { path: '/setting/profile', ready: true },
  password: { path: '/setting/password', ready: true },
  security: { path: '/setting/security', ready: true },
  help: { path: '/help', ready: true },
  superUsers: { path: '/super/users/users', ready: true },
  superTokens: { path: '/super/users/tokens', ready: true },
  superTg: { path: '/super/notification/tg', ready: true },
  superConfig: { path: '/super/system/config', ready: true },
  superAudit: { path: '/super/system/audit', ready: true },
  autoCheckCalendar: { path: '/auto-checks/calendar', ready: true },
  maintenance: { path: '/auto-checks/maintenance', ready: true },
  login: { path: '/auth/login', ready: true },
  forbidden: { path: '/403', ready: true },
  notFound: { path: '/404', ready: true },
  serverError: { path: '/500', ready: true },
} as const satisfies Record<string, { path: string; ready: boolean }>;

type RoutePaths = typeof routePaths;
export type RouteName = keyof RoutePaths;
/** Names whose screen exists; the only ones a link may point at. */
export type ReadyRouteName = { [N in RouteName]: RoutePaths[N]['ready'] extends true ? N : never }[RouteName];

/** `'/operations/:operationID'` -> `'operationID'`. */
type ParamNames<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? Param | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Param}`
    ? Param
    : never;
export type RouteParams<N extends RouteName> = Record<ParamNames<RoutePaths[N]['path']>, string | number>;
/** A path without params takes no second argument; one with params requires all of them. */
type ParamsArg<N extends RouteName> = [ParamNames<RoutePaths[N]['path']>] extends [never] ? [] : [RouteParams<N>];

/** `pathOf('operationDetail', { operationID: 12 })` -> '/operations/12'. */
export function pathOf<N extends ReadyRouteName>(name: N, ...[params]: ParamsArg<N>): string {
  const values: Record<string, string | number> = params ?? {};
  return routePaths[name].path.replace(/:(\w+)/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`Missing param ${key} for route ${name}`);
    return encodeURIComponent(String(value));
  });
}
