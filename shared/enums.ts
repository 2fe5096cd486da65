// Every enumeration of the spec (section 3), with the label beside each value.
// `defineEnum` keeps the values as literal types and gives the web its options list,
// so no screen spells a label or a number twice.

export interface EnumDef<K extends string, V extends number | string> {
  /** Name -> value, e.g. Bank.values.KBZ === 1 */
  readonly values: Readonly<Record<K, V>>;
  /** Value -> label shown to users */
  readonly labels: Readonly<Record<V, string>>;
  /** Ordered [value, label] pairs for selects and filters */
  readonly options: ReadonlyArray<{ value: V; label: string }>;
  label(value: V | null | undefined): string;
  has(value: unknown): value is V;
}

export function defineEnum<const T extends Record<string, readonly [number | string, string]>>(
  def: T,
): EnumDef<Extract<keyof T, string>, T[keyof T][0]> {
  type K = Extract<keyof T, string>;
  type V = T[keyof T][0];
  const values = {} as Record<K, V>;
  const labels = {} as Record<V, string>;
  const options: { value: V; label: string }[] = [];
  for (const [name, [value, label]] of Object.entries(def) as [K, readonly [V, string]][]) {
    values[name] = value;
    labels[value] = label;
    options.push({ value, label });
  }
  return {
    values,
    labels,
    options,
    label: (value) => (value === null || value === undefined ? '' : (labels[value] ?? String(value))),
    has: (value): value is V => options.some((o) => o.value === value),
  };
}

/** Value type of an enum definition: `EnumValue<typeof Bank>` is `1 | 2`. */
export type EnumValue<E> = E extends EnumDef<string, infer V> ? V : never;

export const Bank = defineEnum({ KBZ: [1, 'KBZ'], AYA: [2, 'AYA'] });

export const BankAccountStatus = defineEnum({
  Enable: [1, 'Enable'],
  Incorrect: [2, 'Incorrect'],
  Locked: [3, 'Locked'],
  Wrong: [9, 'Wrong'],
  Disable: [99, 'Disable'],
});

export const SubAccountStatus = defineEnum({
  Available: [1, 'Available'],
  Unavailable: [2, 'Unavailable'],
  Wrong: [9, 'Wrong'],
  Disable: [99, 'Disable'],
});

export const NotifyStatus = defineEnum({
  NoNotify: [-2, 'No Notify'],
  NoNeed: [-1, 'No Need'],
  Pending: [0, 'Pending'],
  Success: [1, 'Success'],
  Duplication: [2, 'Duplication'],
  ChannelClosed: [3, 'Channel Closed'],
  NoTarget: [4, 'NO Target'],
  Failed: [9, 'Failed'],
});

export const BankNotificationCategory = defineEnum({
  Statement: [1, 'Statement'],
  Balance: [2, 'Balance'],
  // Not in the spec's enum: the staleness alerts of issue 13 (an account stopped being polled, and recovered).
  Monitor: [3, 'Monitor'],
});

export const PushChannel = defineEnum({ WebHook: [1, 'WebHook'], TG: [2, 'TG'] });

export const NotificationCategory = defineEnum({
  Subtask: [1, 'Subtask'],
  Task: [2, 'Task'],
  Operation: [3, 'Operation'],
});

export const NotificationStatus = defineEnum({ Unread: [1, 'Unread'], Read: [2, 'Read'] });

export const PushStatus = defineEnum({ NoNeed: [0, 'NoNeed'], Pending: [1, 'Pending'], Pushed: [2, 'Pushed'] });

/** Function points of a check. The API calls them `point` on input and `process` on output. */
export const Process = defineEnum({
  Login: [1, 'Login Account'],
  PlaceBets: [2, 'Place Bets'],
  DeleteBets: [3, 'Delete Bets'],
  CheckFixBets: [4, 'Check Fix Bets'],
  OutSetting3: [5, 'Out Setting3'],
  DeleteBetsOut: [6, 'Delete Bets Out'],
  OutSetting3Status: [7, 'Out Setting3 Status'],
  AgentSetting: [8, 'Agent Setting'],
});

export const TaskStatus = defineEnum({
  Pending: [1, 'Pending'],
  Running: [2, 'Running'],
  Pause: [3, 'Pause'],
  Done: [100, 'Done'],
});

/** Subtasks and operations add Failed (99) to the task statuses. */
export const RunStatus = defineEnum({
  Pending: [1, 'Pending'],
  Running: [2, 'Running'],
  Pause: [3, 'Pause'],
  Failed: [99, 'Failed'],
  Done: [100, 'Done'],
});

export const OperationName = defineEnum({
  SingleSite: [1, 'SingleSite'],
  MultiSites: [2, 'MultiSites'],
  AutoCheck: [3, 'AutoCheck'],
});

/** Actions on an operation or a task (spec sections 4, 9): pause holds pending tasks, resume runs paused ones. */
export const OperationAction = defineEnum({ Pause: [1, 'Pause'], Resume: [2, 'Resume'] });
export type OperationActionValue = EnumValue<typeof OperationAction>;

export const SiteAccountStatus = defineEnum({ Enable: [1, 'Enable'], Disable: [2, 'Disable'] });

export const TestMode = defineEnum({ D4: [1, 'D4'], TT: [3, 'TT'] });

export const AuthType = defineEnum({ Account: [1, 'Account'], Session: [2, 'Session'] });

export const Weekday = defineEnum({
  Monday: [1, 'Monday'],
  Tuesday: [2, 'Tuesday'],
  Wednesday: [3, 'Wednesday'],
  Thursday: [4, 'Thursday'],
  Friday: [5, 'Friday'],
  Saturday: [6, 'Saturday'],
  Sunday: [7, 'Sunday'],
});

/** Engine events recorded for the Operation records screen. */
export const MessageAction = defineEnum({
  OperationStart: ['operation_start', 'Operation start'],
  OperationEnd: ['operation_end', 'Operation end'],
  TaskStart: ['task_start', 'Check task start'],
  TaskEnd: ['task_end', 'Check task end'],
  SubtaskStart: ['subtask_start', 'Subtask start'],
  SubtaskEnd: ['subtask_end', 'Subtask end'],
  CronCheck: ['cron_check', 'Cron check'],
});

export const AgentPlatform = defineEnum({ D4: ['D4', 'D4'], MG: ['MG', 'MG'], TT: ['TT', 'TT'] });

// Highest first. A viewer reads every screen an operator reads and changes nothing (shared/roles.ts).
export const UserRole = defineEnum({
  Super: ['super', 'Super'],
  Operator: ['operator', 'Operator'],
  Viewer: ['viewer', 'Viewer'],
});

/** Why a login was refused, as the audit trail says (never shown to the one signing in). */
export const LoginFailure = defineEnum({
  WrongPassword: ['wrong_password', 'Wrong password'],
  UnknownUsername: ['unknown_username', 'Unknown username'],
  Captcha: ['captcha', 'Captcha'],
  Throttled: ['throttled', 'Throttled'],
  Disabled: ['disabled', 'Disabled'],
  // The second step (docs/sign-in.md): a wrong or reused code, an expired sign-in ticket.
  WrongCode: ['wrong_code', 'Wrong second-factor code'],
  Ticket: ['ticket', 'Expired sign-in'],
});
