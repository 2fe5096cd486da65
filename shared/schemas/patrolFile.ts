import { z } from 'zod';
import { Bank, Process, TestMode } from '../enums.js';
import { TIME_PATTERN } from '../validators.js';
import { Bounds } from './common.js';

// The file of `npm run patrol -- export | apply` (issue 46 item 4, docs/automation.md): sites, their
// accounts, auto-check rules, maintenance windows, bank accounts' monitor settings and alert rules
// as code. Entries name each other by key, never by database id, so one file applies to any stage:
// a site by its name, a site account by `site/user`, a bank account by `BANK/user`, a rule, a window
// and an alert rule by their names. A password is never written, only `${env:NAME}`, read at apply.
//
// Plain shapes without transforms: GET /api/v1/patrol.schema.json is this schema as JSON Schema
// (z.toJSONSchema), and an editor checks the file with it. What JSON Schema cannot say (keys
// unique in a section, references that resolve) the command checks before it changes anything.

export const PATROL_FILE_VERSION = 1;
/** Where the schema is published (below the API's base path), for the file's first line. */
export const PATROL_SCHEMA_PATH = '/patrol.schema.json';

const ENV_REF = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** The variable a `${env:NAME}` names, or undefined for any other string. */
export const envRefName = (value: string): string | undefined => ENV_REF.exec(value)?.[1];
export const envRef = (name: string) => `\${env:${name}}`;
/** How the file writes a password, for messages. */
const ENV_FORM = envRef('NAME');

const EnvRef = z
  .string()
  .regex(ENV_REF, `Write a password as ${ENV_FORM}: the file never holds one`)
  .describe(`${ENV_FORM}: the password is read from the environment variable NAME when the file is applied`);
const Name = z.string().trim().min(1, 'Required').max(Bounds.name, `max length is ${Bounds.name}`);
const Url = z
  .string()
  .max(Bounds.url, `max length is ${Bounds.url}`)
  .regex(/^https?:\/\/\S+$/, 'Please give the full address including http(s)://');
const Time = z.string().regex(TIME_PATTERN, 'Use a 24-hour time HH:mm');
const Weekday = z
  .number()
  .int()
  .min(1, 'Weekday must be 1 (Monday) to 7 (Sunday)')
  .max(7, 'Weekday must be 1 (Monday) to 7 (Sunday)');

const names = <T extends Record<string, unknown>>(values: T) => Object.keys(values) as [keyof T & string];
export const BankName = z.enum(names(Bank.values)).describe('The bank: KBZ or AYA');
export const ProcessName = z.enum(names(Process.values));
export const ModeName = z.enum(names(TestMode.values));

export const SiteAccountEntry = z
  .object({
    user: Name,
    pwd: EnvRef,
    enable: z.boolean().optional(),
  })
  .strict();

export const SiteEntry = z
  .object({
    name: Name.describe('The key: sites are unique by name (case-insensitive)'),
    url: Url,
    enable: z.boolean().optional(),
    accounts: z
      .array(SiteAccountEntry)
      .max(200)
      .optional()
      .describe('Keyed by user within the site; an account the file leaves out is disabled by --prune'),
  })
  .strict();

export const AutoCheckRuleEntry = z
  .object({
    name: Name.describe('The key'),
    sites: z.array(Name).min(1, 'Please select sites first').max(Bounds.ids).describe('Site names'),
    points: z
      .array(z.object({ process: ProcessName, modes: z.array(ModeName).min(1).max(Bounds.list) }).strict())
      .min(1, 'No point to check')
      .max(Bounds.list),
    times: z
      .array(z.object({ day: Weekday, times: z.array(Time).min(1).max(48) }).strict())
      .min(1, 'Please add at least one check time')
      .max(7)
      .describe('Days 1 (Monday) to 7 (Sunday), times HH:mm in the configured time zone'),
    enable: z.boolean().optional(),
  })
  .strict();

const windowCommon = {
  name: Name.describe('The key'),
  sites: z.union([z.literal('all'), z.array(Name).min(1).max(Bounds.ids)]).describe("Site names, or 'all'"),
  mode: z.enum(['pause', 'silent']),
  enabled: z.boolean().optional(),
};
export const MaintenanceEntry = z.discriminatedUnion('kind', [
  z
    .object({
      ...windowCommon,
      kind: z.literal('once'),
      start_at: z.iso.datetime({ offset: true }),
      end_at: z.iso.datetime({ offset: true }),
    })
    .strict(),
  z
    .object({
      ...windowCommon,
      kind: z.literal('weekly'),
      days: z.array(Weekday).min(1, 'Choose at least one weekday').max(7),
      start_time: Time,
      end_time: Time,
    })
    .strict(),
]);

/** A monitor range's end may be the day's end, 24:00; seconds only where a range holds them. */
const RangeTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?|24:00)$/, 'Use HH:mm (00:00 to 24:00)');

export const BankAccountEntry = z
  .object({
    bank: BankName,
    user: Name.describe('With the bank, the key: KBZ/<user>'),
    pwd: EnvRef,
    enabled: z.boolean().optional().describe('false: status Disable; true: any other (a poll sets Incorrect, Locked…)'),
    interval: z.number().int().min(5).max(120).optional().describe('Seconds between polls'),
    range: z
      .array(z.tuple([RangeTime, RangeTime]))
      .max(24)
      .optional()
      .describe('Monitored ranges of the day, [start, end], in the configured time zone'),
    holder: z.string().max(Bounds.name).optional(),
    mobile: z.string().max(40).optional(),
    remark: z.string().max(Bounds.remark).optional(),
    webhook: Url.nullable().optional(),
  })
  .strict();

export const AlertRuleEntry = z
  .object({
    name: Name.describe('The key'),
    expression: z.string().min(1).max(2000),
    scope: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('all') }).strict(),
      z.object({ kind: z.literal('bank'), bank: BankName }).strict(),
      z
        .object({ kind: z.literal('accounts'), accounts: z.array(z.string()).min(1).max(Bounds.ids) })
        .strict()
        .describe('Bank accounts by key, BANK/user'),
    ]),
    severity: z.enum(['info', 'warning', 'critical']),
    chat_id: z.string().max(Bounds.name).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

/**
 * The file. A section left out is left alone, even by --prune; a field left out of an entry is
 * left as it is (a new entry takes the API's default).
 */
export const PatrolFile = z
  .object({
    version: z.literal(PATROL_FILE_VERSION),
    sites: z.array(SiteEntry).optional(),
    auto_check_rules: z.array(AutoCheckRuleEntry).optional(),
    maintenance_windows: z.array(MaintenanceEntry).optional(),
    bank_accounts: z.array(BankAccountEntry).optional(),
    alert_rules: z.array(AlertRuleEntry).optional(),
  })
  .strict();

export type PatrolFile = z.infer<typeof PatrolFile>;
export type SiteEntry = z.infer<typeof SiteEntry>;
export type SiteAccountEntry = z.infer<typeof SiteAccountEntry>;
export type AutoCheckRuleEntry = z.infer<typeof AutoCheckRuleEntry>;
export type MaintenanceEntry = z.infer<typeof MaintenanceEntry>;
export type BankAccountEntry = z.infer<typeof BankAccountEntry>;
export type AlertRuleEntry = z.infer<typeof AlertRuleEntry>;

/**
 * The file's JSON Schema, as published for editors: draft-07, the draft every yaml-language-server
 * and JSON Schema store client reads (2020-12 support came later and not everywhere).
 */
export function patrolFileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(PatrolFile, { io: 'input', target: 'draft-7' }),
    title: 'Patrol sites and rules as code (npm run patrol -- export | apply)',
  };
}
