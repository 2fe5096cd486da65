import { z } from 'zod';
import { Process } from '../enums.js';
import type { ListFields } from '../listQuery.js';
import { isTimeZone } from '../zoneClock.js';
import { SsoConfig, SsoMfaClaims, SsoUsernameClaims } from './sso.js';
import { SecondFactorPolicies, type SecondFactorPolicy } from './auth.js';
import { ReportLanguages, ReportsConfig } from './reports.js';

const PROCESS_NAMES = Process.options.map((o) => o.label);

// The system config of the super area (spec sections 2, 3, 7: '/super/system/config',
// GET and POST /super/system-config). One typed document; its payload is not shown by the spec,
// so the shape is ours. Bounds are declared once here and read by both the schema and the form.
// Nothing in it is secret: signed-in operators read it too (the shell holds it, spec section 3).

/** Bounds of every number in the document: the schema checks them, the form shows them. */
export const ConfigBounds = {
  checkerConcurrency: { min: 1, max: 32 },
  stepTimeoutSeconds: { min: 5, max: 300 },
  retentionDays: { min: 1, max: 3650 },
  // Spec section 5: monitor interval, integer 5 to 120 seconds.
  monitorInterval: { min: 5, max: 120 },
  checkerRetries: { min: 0, max: 2 },
  /** A process's time budget: 100 ms to 10 minutes. */
  timeBudgetMs: { min: 100, max: 600_000 },
  // Minutes between reminders of an open incident; 0 turns them off.
  reminderMinutes: { min: 0, max: 1440 },
  /** Issue 45: escalation's step (0 off), correlation's sites (0 off) and window, the group wait. */
  escalateAfterMinutes: { min: 0, max: 1440 },
  correlateMinSites: { min: 0, max: 1000 },
  correlateWindowMinutes: { min: 1, max: 1440 },
  groupWaitSeconds: { min: 0, max: 600 },
  /** The longest maintenance window, in days (issue 43): a window can silence alerts only so long. */
  maintenanceMaxDays: { min: 1, max: 365 },
} as const;

/**
 * Why a check attempt failed, as far as a retry cares (functions/checks/failureKind.ts decides):
 * the site did not answer in time, the network did not get there, the site answered 5xx, or the
 * page itself did something wrong (a refused login, a closed draw, a malformed answer). The first
 * three are often passing troubles; a page error usually is not, so it is not retried by default.
 */
export const FailureKinds = ['timeout', 'network', 'http5xx', 'page_error'] as const;
export type FailureKind = (typeof FailureKinds)[number];
export const FailureKindLabels: Record<FailureKind, string> = {
  timeout: 'Timeout',
  network: 'Network',
  http5xx: 'HTTP 5xx',
  page_error: 'Page error',
};

/** The processes (1-8) as the keys of a per-process setting. */
export const ProcessKeys = ['1', '2', '3', '4', '5', '6', '7', '8'] as const;

export const ConfigMessages = {
  timeZone: 'Unknown time zone, use an IANA name such as Asia/Yangon',
  integer: 'Please input a number',
  monitorInterval: 'Must between 5 and 120',
  code: 'Codes are 1 to 64 letters, digits and . _ -',
  duplicate: 'Each code may appear only once',
  unknownChannel: 'Not one of the channel codes',
  unknownPackage: 'Not one of the package codes',
  duplicatePair: 'This channel-package pair is listed twice',
  duplicateKind: 'Each kind may appear only once',
} as const;

const bounded = (b: { min: number; max: number }, message?: string) =>
  z
    .number({ error: ConfigMessages.integer })
    .int(ConfigMessages.integer)
    .min(b.min, message ?? `Min is ${b.min}.`)
    .max(b.max, message ?? `Max is ${b.max}.`);

const days = (fallback: number) => bounded(ConfigBounds.retentionDays).default(fallback);

const Code = z
  .string({ error: ConfigMessages.code })
  .trim()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, ConfigMessages.code);

/** A list of codes, each once. */
const CodeList = z
  .array(Code)
  .max(200, 'max 200 codes')
  .default([])
  .superRefine((codes, ctx) => {
    const seen = new Set<string>();
    codes.forEach((code, i) => {
      if (seen.has(code)) ctx.addIssue({ code: 'custom', path: [i], message: ConfigMessages.duplicate });
      seen.add(code);
    });
  });

export const ChannelPackagePair = z.object({ channel: Code, package: Code });
export type ChannelPackagePair = z.infer<typeof ChannelPackagePair>;

/** RECHARGE_CONFIG of the shell state (spec section 3): option lists and which channel sells which package. */
export const RechargeConfig = z
  .object({
    merchant_codes: CodeList,
    price_codes: CodeList,
    channel_codes: CodeList,
    package_codes: CodeList,
    channel_package_pairs: z.array(ChannelPackagePair).max(1000).default([]),
  })
  .superRefine((rc, ctx) => {
    // Each pair names an existing channel and package: a pair of a removed code is refused, never kept.
    const channels = new Set(rc.channel_codes);
    const packages = new Set(rc.package_codes);
    const seen = new Set<string>();
    rc.channel_package_pairs.forEach((pair, i) => {
      if (!channels.has(pair.channel)) {
        ctx.addIssue({
          code: 'custom',
          path: ['channel_package_pairs', i, 'channel'],
          message: ConfigMessages.unknownChannel,
        });
      }
      if (!packages.has(pair.package)) {
        ctx.addIssue({
          code: 'custom',
          path: ['channel_package_pairs', i, 'package'],
          message: ConfigMessages.unknownPackage,
        });
      }
      const key = `${pair.channel}\u0000${pair.package}`;
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['channel_package_pairs', i], message: ConfigMessages.duplicatePair });
      seen.add(key);
    });
  });
export type RechargeConfig = z.infer<typeof RechargeConfig>;

/** What kinds of stored rows expire, each after its own number of days. */
export const RetentionKinds = ['log_rows', 'raw_logs', 'videos', 'events', 'notifications', 'reports'] as const;
export type RetentionKind = (typeof RetentionKinds)[number];

export const SystemConfig = z.object({
  /**
   * The zone of rule times, bank monitor ranges and every time the console shows. Myanmar by
   * default: KBZ and AYA are Myanmar banks.
   */
  time_zone: z
    .string({ error: ConfigMessages.timeZone })
    .trim()
    .refine(isTimeZone, ConfigMessages.timeZone)
    .default('Asia/Yangon'),
  checker: z
    .object({
      /** Checks run in parallel by one checker. */
      concurrency: bounded(ConfigBounds.checkerConcurrency).default(4),
      /** How long one browser step may take before the subtask fails. */
      step_timeout_seconds: bounded(ConfigBounds.stepTimeoutSeconds).default(15),
      /** Attempts after a failed one, at once and in a fresh page, when its failure kind is in retry_on. */
      retries: bounded(ConfigBounds.checkerRetries).default(1),
      retry_on: z
        .array(z.enum(FailureKinds, { error: `One of ${FailureKinds.join(', ')}` }))
        .max(FailureKinds.length)
        .default(['timeout', 'network', 'http5xx'])
        .refine((kinds) => new Set(kinds).size === kinds.length, ConfigMessages.duplicateKind),
      /** Per process (1-8), the ms a passing check may take before it counts as degraded (Slow); unset: none. */
      time_budget_ms: z.partialRecord(z.enum(ProcessKeys), bounded(ConfigBounds.timeBudgetMs)).default({}),
    })
    .prefault({}),
  retention_days: z
    .object({
      log_rows: days(180),
      raw_logs: days(180),
      videos: days(180),
      events: days(180),
      notifications: days(365),
      /** Reports (issue 46): the row, its figures and its PDF (the bucket's `reports/` rule is the backstop). */
      reports: days(400),
    })
    .prefault({}),
  bank: z
    .object({
      /** Seconds between two looks at a new bank account's statements. */
      default_monitor_interval: bounded(ConfigBounds.monitorInterval, ConfigMessages.monitorInterval).default(30),
    })
    .prefault({}),
  alerts: z
    .object({
      /**
       * An open incident, not acknowledged or snoozed, is announced again (a reply to its Telegram
       * message) every this many minutes; 0 turns reminders off.
       */
      reminder_minutes: bounded(ConfigBounds.reminderMinutes).default(30),
      /**
       * An incident nobody acknowledged, snoozed or paused goes to the escalation chat after this
       * many minutes, and to the super users' own chats after as many again; 0 turns it off.
       */
      escalate_after_minutes: bounded(ConfigBounds.escalateAfterMinutes).default(15),
      /** Sites failing one check (process and mode) within the window below that make a parent; 0: never. */
      correlate_min_sites: bounded(ConfigBounds.correlateMinSites).default(3),
      correlate_window_minutes: bounded(ConfigBounds.correlateWindowMinutes).default(10),
      /** A new incident's first message waits this long for siblings (Alertmanager's group_wait). */
      group_wait_seconds: bounded(ConfigBounds.groupWaitSeconds).default(30),
    })
    .prefault({}),
  maintenance: z
    .object({
      /** A maintenance window lasts at most this many days (a weekly one's each occurrence is shorter anyway). */
      max_days: bounded(ConfigBounds.maintenanceMaxDays).default(7),
    })
    .prefault({}),
  auth: z
    .object({
      /**
       * Who must have a second factor (TOTP or a passkey): nobody, super users, or everyone. A user
       * it covers who has none is taken to enrolment right after the password (docs/sign-in.md).
       */
      second_factor: z
        .enum(SecondFactorPolicies, { error: `One of ${SecondFactorPolicies.join(', ')}` })
        .default('super'),
    })
    .prefault({}),
  /** Single sign-on with OpenID Connect (docs/sign-in.md); its client secret is kept apart, encrypted. */
  sso: SsoConfig.prefault({}),
  /** The reports' schedule and language (docs/reports.md): weekly on Monday 09:00 by default. */
  reports: ReportsConfig.prefault({}),
  RECHARGE_CONFIG: RechargeConfig.prefault({}),
});
export type SystemConfig = z.infer<typeof SystemConfig>;
/** The document as a client sends it: every part may be left out and takes its default. */
export type SystemConfigInput = z.input<typeof SystemConfig>;

/** The document of a fresh install. */
export const DEFAULT_SYSTEM_CONFIG: SystemConfig = SystemConfig.parse({});

/** One changed leaf between two versions; `path` is dotted ('retention_days.videos'). */
export interface ConfigChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** A saved version of the document: who saved it, when, and what changed against the one before. */
export interface SystemConfigVersion {
  /** 1, 2, 3... in saving order. */
  id: number;
  document: SystemConfig;
  changes: ConfigChange[];
  /** The version this one brought back, when it was a restore. */
  restored_from?: number;
  by: { id: number; nickname: string };
  created_at: number;
}

/** GET /super/system-config and POST's answer: the current document and its version (0: never saved). */
export interface SystemConfigState {
  version: number;
  document: SystemConfig;
  updated_at: number | null;
  updated_by: { nickname: string } | null;
}

/** Listable fields of GET /super/system-config/versions. */
export const systemConfigVersionFields = {
  id: 'number',
  restored_from: 'number',
  created_at: 'datetime',
} as const satisfies ListFields;

// The form of the Config page is generated from this list (one entry per leaf, in order), so a
// new setting is one schema line and one entry here.
export type ConfigFieldKind =
  | 'timeZone'
  | 'integer'
  | 'optionalInteger'
  | 'choices'
  | 'codes'
  | 'pairs'
  | 'switch'
  | 'text'
  | 'choice'
  | 'secret';
export interface ConfigField {
  /** Dotted path into the document, also the key of its error in `extra`. */
  path: string;
  /** English label (the i18n key). */
  label: string;
  kind: ConfigFieldKind;
  section:
    | 'General'
    | 'Checker'
    | 'Retention'
    | 'Bank monitor'
    | 'Alerts'
    | 'Reports'
    | 'Single sign-on'
    | 'RECHARGE_CONFIG';
  help?: string;
  bounds?: { min: number; max: number };
  unit?: string;
  /** For 'choices' and 'choice': the values offered, with their labels (English keys). */
  choices?: readonly { value: string; label: string }[];
  /**
   * For 'secret': not in the document (every signed-in user reads it) but kept encrypted apart, read
   * as `{ set, hint }` and written as `{ <last segment of path>: value }` at this API path.
   */
  secretUrl?: string;
}

const retention = (kind: RetentionKind, label: string): ConfigField => ({
  path: `retention_days.${kind}`,
  label,
  kind: 'integer',
  section: 'Retention',
  bounds: ConfigBounds.retentionDays,
  unit: 'days',
});

export const systemConfigFields: readonly ConfigField[] = [
  {
    path: 'time_zone',
    label: 'Time zone',
    kind: 'timeZone',
    section: 'General',
    help: 'Rule times, bank monitor ranges and every time shown in the console use this zone.',
  },
  {
    path: 'auth.second_factor',
    label: 'Second factor required of',
    kind: 'choice',
    section: 'General',
    choices: [
      { value: 'off', label: 'Nobody' },
      { value: 'super', label: 'Super users' },
      { value: 'all', label: 'Everyone' },
    ] satisfies { value: SecondFactorPolicy; label: string }[],
    help: 'A user it covers who has no authenticator app or passkey sets one up right after the password, and reaches nothing else before.',
  },
  {
    path: 'checker.concurrency',
    label: 'Checker concurrency',
    kind: 'integer',
    section: 'Checker',
    bounds: ConfigBounds.checkerConcurrency,
    help: 'Checks that run at once; applies to the next checks within seconds. The deployment sets the ceiling (cdk.json concurrency, CHECKER_CONCURRENCY locally).',
  },
  {
    path: 'checker.step_timeout_seconds',
    label: 'Step timeout',
    kind: 'integer',
    section: 'Checker',
    bounds: ConfigBounds.stepTimeoutSeconds,
    unit: 'seconds',
  },
  {
    path: 'checker.retries',
    label: 'Retries',
    kind: 'integer',
    section: 'Checker',
    bounds: ConfigBounds.checkerRetries,
    help: 'A subtask whose attempt fails with one of the kinds below runs again at once, in a fresh page. A pass after a failed attempt is Flaky and sends no notification.',
  },
  {
    path: 'checker.retry_on',
    label: 'Retry on',
    kind: 'choices',
    section: 'Checker',
    choices: FailureKinds.map((value) => ({ value, label: FailureKindLabels[value] })),
  },
  ...ProcessKeys.map(
    (key): ConfigField => ({
      path: `checker.time_budget_ms.${key}`,
      label: `Time budget: ${PROCESS_NAMES[Number(key) - 1]}`,
      kind: 'optionalInteger',
      section: 'Checker',
      bounds: ConfigBounds.timeBudgetMs,
      unit: 'ms',
      help: 'A pass slower than this is Slow (degraded). Empty: no budget.',
    }),
  ),
  retention('log_rows', 'Log rows'),
  retention('raw_logs', 'Raw logs'),
  retention('videos', 'Videos'),
  retention('events', 'Events'),
  retention('notifications', 'Notifications'),
  retention('reports', 'Reports'),
  {
    path: 'bank.default_monitor_interval',
    label: 'Default monitor interval',
    kind: 'integer',
    section: 'Bank monitor',
    bounds: ConfigBounds.monitorInterval,
    unit: 'seconds',
    help: 'For new bank accounts.',
  },
  {
    path: 'alerts.reminder_minutes',
    label: 'Incident reminder',
    kind: 'integer',
    section: 'Alerts',
    bounds: ConfigBounds.reminderMinutes,
    unit: 'minutes',
    help: 'An open incident nobody acknowledged or snoozed is announced again in Telegram this often; 0 turns reminders off.',
  },
  {
    path: 'alerts.escalate_after_minutes',
    label: 'Escalate after',
    kind: 'integer',
    section: 'Alerts',
    bounds: ConfigBounds.escalateAfterMinutes,
    unit: 'minutes',
    help: 'An open incident nobody acknowledged, snoozed or paused goes to the escalation chat after this long, then to every linked super user after as long again. Critical ones escalate at once, info ones never; 0 turns escalation off.',
  },
  {
    path: 'alerts.correlate_min_sites',
    label: 'Group a check failing on',
    kind: 'integer',
    section: 'Alerts',
    bounds: ConfigBounds.correlateMinSites,
    unit: 'sites',
    help: 'This many sites failing the same check (process and mode) within the window below share one parent incident and one message; 0 never groups them.',
  },
  {
    path: 'alerts.correlate_window_minutes',
    label: 'Grouping window',
    kind: 'integer',
    section: 'Alerts',
    bounds: ConfigBounds.correlateWindowMinutes,
    unit: 'minutes',
  },
  {
    path: 'alerts.group_wait_seconds',
    label: 'Group wait',
    kind: 'integer',
    section: 'Alerts',
    bounds: ConfigBounds.groupWaitSeconds,
    unit: 'seconds',
    help: "A new incident's first message waits this long for others of the same cause, so a burst makes one message.",
  },
  {
    path: 'maintenance.max_days',
    label: 'Longest maintenance window',
    kind: 'integer',
    section: 'Alerts',
    bounds: ConfigBounds.maintenanceMaxDays,
    unit: 'days',
    help: 'A one-off maintenance window may last at most this long, and none ends more than a year ahead.',
  },
  {
    path: 'reports.language',
    label: 'Report language',
    kind: 'choice',
    section: 'Reports',
    choices: ReportLanguages.map((value) => ({ value, label: value === 'zh' ? '简体中文' : 'English' })),
    help: 'The PDF and the Telegram summary of every report are written in this language.',
  },
  { path: 'reports.daily.enabled', label: 'Daily report', kind: 'switch', section: 'Reports' },
  {
    path: 'reports.daily.time',
    label: 'Daily report time',
    kind: 'text',
    section: 'Reports',
    help: "HH:mm in the configured time zone: yesterday's report is sent to the check chat then.",
  },
  { path: 'reports.weekly.enabled', label: 'Weekly report', kind: 'switch', section: 'Reports' },
  {
    path: 'reports.weekly.weekday',
    label: 'Weekly report day',
    kind: 'integer',
    section: 'Reports',
    bounds: { min: 1, max: 7 },
    help: 'Monday is 1, Sunday 7: the previous week, Monday to Sunday, is sent that day.',
  },
  { path: 'reports.weekly.time', label: 'Weekly report time', kind: 'text', section: 'Reports', help: 'HH:mm' },
  { path: 'reports.monthly.enabled', label: 'Monthly report', kind: 'switch', section: 'Reports' },
  {
    path: 'reports.monthly.day',
    label: 'Monthly report day',
    kind: 'integer',
    section: 'Reports',
    bounds: { min: 1, max: 28 },
    help: 'Day of the month (1-28): the previous month is sent that day.',
  },
  { path: 'reports.monthly.time', label: 'Monthly report time', kind: 'text', section: 'Reports', help: 'HH:mm' },
  { path: 'sso.enabled', label: 'Single sign-on', kind: 'switch', section: 'Single sign-on' },
  {
    path: 'sso.display_name',
    label: 'Button name',
    kind: 'text',
    section: 'Single sign-on',
    help: 'The login page shows "Sign in with <name>".',
  },
  {
    path: 'sso.issuer',
    label: 'Issuer URL',
    kind: 'text',
    section: 'Single sign-on',
    help: 'The OpenID Connect issuer, e.g. https://accounts.google.com. Register the redirect URI <console>/api/v1/auth/oidc/callback at the provider.',
  },
  { path: 'sso.client_id', label: 'Client ID', kind: 'text', section: 'Single sign-on' },
  {
    path: 'sso.client_secret',
    label: 'Client secret',
    kind: 'secret',
    section: 'Single sign-on',
    secretUrl: '/super/sso/client-secret',
    help: 'Kept encrypted, apart from this document; saved with its own button.',
  },
  {
    path: 'sso.username_claim',
    label: 'Claim naming the user',
    kind: 'choice',
    section: 'Single sign-on',
    choices: SsoUsernameClaims.map((value) => ({ value, label: value })),
    help: 'A Patrol user whose username is this claim (any case) signs in; nobody else. Users are never created here.',
  },
  {
    path: 'sso.mfa_claim',
    label: "Provider's MFA counts as second factor",
    kind: 'choice',
    section: 'Single sign-on',
    choices: SsoMfaClaims.map((value) => ({ value, label: value === 'off' ? 'Never' : `When ${value} shows it` })),
  },
  {
    path: 'sso.mfa_values',
    label: 'MFA values',
    kind: 'codes',
    section: 'Single sign-on',
    help: 'amr values (any one) or acr values that mean the user passed MFA, e.g. mfa.',
  },
  { path: 'RECHARGE_CONFIG.merchant_codes', label: 'Merchant codes', kind: 'codes', section: 'RECHARGE_CONFIG' },
  { path: 'RECHARGE_CONFIG.price_codes', label: 'Price codes', kind: 'codes', section: 'RECHARGE_CONFIG' },
  { path: 'RECHARGE_CONFIG.channel_codes', label: 'Channel codes', kind: 'codes', section: 'RECHARGE_CONFIG' },
  { path: 'RECHARGE_CONFIG.package_codes', label: 'Package codes', kind: 'codes', section: 'RECHARGE_CONFIG' },
  {
    path: 'RECHARGE_CONFIG.channel_package_pairs',
    label: 'Channel-package pairs',
    kind: 'pairs',
    section: 'RECHARGE_CONFIG',
    help: 'Each pair names one of the channel codes and one of the package codes.',
  },
];

/** The value at a dotted path. */
export function readConfigPath(doc: unknown, path: string): unknown {
  let value: unknown = doc;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A copy of `doc` with the value at a dotted path replaced. */
export function writeConfigPath<T>(doc: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const base = (doc ?? {}) as Record<string, unknown>;
  return { ...base, [head]: rest.length ? writeConfigPath(base[head], rest.join('.'), value) : value } as T;
}

/** The changed leaves between two documents (arrays compare whole: a list is one setting). */
export function diffConfig(before: unknown, after: unknown, prefix = ''): ConfigChange[] {
  const isPlain = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isPlain(before) && isPlain(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => diffConfig(before[k], after[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(before) === JSON.stringify(after)
    ? []
    : [{ path: prefix, from: before ?? null, to: after ?? null }];
}
