import { z } from 'zod';
import { defineEnum, type EnumValue, type Process, type TestMode } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { TIME_PATTERN } from '../validators.js';
import type { Heatmap } from './dashboard.js';
import type { IncidentStatusValue } from './incidents.js';
import type { MaintenanceModeValue } from './maintenance.js';

// Reports (issue 46 item 1): a day, a week (Monday to Sunday) or a month of the configured time zone,
// computed from the kept rollups and the incident rows (functions/reports/, docs/reports.md), stored
// once, shown by the console (web/src/features/reports/), printed to PDF from its own page and sent to
// Telegram with its CSV. One definition for the API, the console and the CSV writer: fields are only
// ever added to these shapes, never renamed.

export const ReportPeriod = defineEnum({
  Day: ['day', 'Daily'],
  Week: ['week', 'Weekly'],
  Month: ['month', 'Monthly'],
});
export type ReportPeriodValue = EnumValue<typeof ReportPeriod>;
const PERIODS = Object.values(ReportPeriod.values) as [ReportPeriodValue, ...ReportPeriodValue[]];

/** The languages a report is written in (its PDF, its Telegram summary): the console's two. */
export const ReportLanguages = ['en', 'zh'] as const;
export type ReportLanguage = (typeof ReportLanguages)[number];

/** A bank poll that starts within this long of its due second is on time (the poll lag sketch). */
export const BANK_ON_TIME_MS = 60_000;

export const ReportMessages = {
  period: 'period must be day, week or month',
  start: 'start must be a date, YYYY-MM-DD',
  weekStart: 'A week starts on a Monday: give that Monday as start',
  monthStart: 'A month starts on its 1st: give YYYY-MM-01 as start',
  notPast: 'Only a period that has ended can be reported: choose an earlier start',
  time: 'Time must be HH:mm, 00:00 to 23:59',
  weekday: 'Weekday must be 1 (Monday) to 7 (Sunday)',
  monthDay: 'Day must be 1 to 28 (every month has it)',
  language: 'Language must be en or zh',
} as const;

const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** 'YYYY-MM-DD' naming a real calendar day (2026-02-30 is refused, not rolled into March). */
export const ReportDate = z
  .string({ error: ReportMessages.start })
  .trim()
  .regex(DATE_PATTERN, ReportMessages.start)
  // zod runs this even when the pattern failed: an unparsable date must answer false, not throw.
  .refine((d) => {
    const t = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
  }, ReportMessages.start);

/**
 * POST /reports: generate the report of one past period now (never sent). `start` is the period's
 * first day: any day for `day`, a Monday for `week`, the 1st for `month`; the server also refuses a
 * period that has not ended yet in the configured zone (400, code 4004).
 */
export const NewReportBody = z
  .object({
    period: z.enum(PERIODS, { error: ReportMessages.period }),
    start: ReportDate,
  })
  .superRefine((body, ctx) => {
    if (!DATE_PATTERN.test(body.start)) return;
    const weekday = new Date(`${body.start}T00:00:00Z`).getUTCDay();
    if (body.period === 'week' && weekday !== 1)
      ctx.addIssue({ code: 'custom', path: ['start'], message: ReportMessages.weekStart });
    if (body.period === 'month' && !body.start.endsWith('-01'))
      ctx.addIssue({ code: 'custom', path: ['start'], message: ReportMessages.monthStart });
  });
export type NewReportBody = z.infer<typeof NewReportBody>;

// The schedule (system config `reports`, shared/schemas/systemConfig.ts): each period's report of the
// period just ended, made once at its time of the configured zone and sent to the check chat.

const time = z.string({ error: ReportMessages.time }).trim().regex(TIME_PATTERN, ReportMessages.time);
const enabled = (fallback: boolean) => z.boolean().default(fallback);

export const ReportsConfig = z.object({
  /** The PDF's and the Telegram summary's language. */
  language: z.enum(ReportLanguages, { error: ReportMessages.language }).default('en'),
  /** Yesterday's report, every day at `time`. */
  daily: z.object({ enabled: enabled(false), time: time.default('08:00') }).prefault({}),
  /** Last week's (Monday to Sunday), on `weekday` (1 Monday … 7 Sunday) at `time`. */
  weekly: z
    .object({
      enabled: enabled(true),
      weekday: z
        .number({ error: ReportMessages.weekday })
        .int(ReportMessages.weekday)
        .min(1, ReportMessages.weekday)
        .max(7, ReportMessages.weekday)
        .default(1),
      time: time.default('09:00'),
    })
    .prefault({}),
  /** Last month's, on `day` (1-28) at `time`. */
  monthly: z
    .object({
      enabled: enabled(false),
      day: z
        .number({ error: ReportMessages.monthDay })
        .int(ReportMessages.monthDay)
        .min(1, ReportMessages.monthDay)
        .max(28, ReportMessages.monthDay)
        .default(1),
      time: time.default('09:00'),
    })
    .prefault({}),
});
export type ReportsConfig = z.infer<typeof ReportsConfig>;

// The report.

/** One process of one site (both modes together) over the period. */
export interface ReportProcessRow {
  process: EnumValue<typeof Process>;
  /** Ended checks (Done or Failed) counted by the check rollups. */
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  /** Passes slower than the process's time budget. */
  degraded: number;
  /** Runs that ended while a maintenance window covered the site: counted above, left out of success_rate. */
  maintenance_runs: number;
  /** Passes ÷ runs, both outside maintenance, 0..1; null without such runs (docs/reports.md "Maintenance"). */
  success_rate: number | null;
  /** flaky ÷ runs, 0..1; null without runs. */
  flaky_rate: number | null;
  /** Of the passes' durations (the rollups' sketch, ~2% apart); null without passes. */
  p50_ms: number | null;
  p95_ms: number | null;
}

/** One site: its processes and the site's totals. */
export interface ReportSite {
  site_id: number;
  site_name: string;
  /** The site's totals over its processes (p50/p95 of all its passes). */
  total: Omit<ReportProcessRow, 'process'>;
  processes: ReportProcessRow[];
  /** Minutes of the period some enabled maintenance window (pause or silent) covered the site; overlaps once. */
  maintenance_minutes: number;
}

/** A maintenance window in force during the period. */
export interface ReportMaintenance {
  window_id: number;
  name: string;
  mode: MaintenanceModeValue;
  /** Its sites' ids, or 'all'. */
  sites: number[] | 'all';
  /** Minutes of the period it was in force. */
  minutes: number;
}

/** An incident opened in the period. Times are epoch ms; durations ms, null while not reached. */
export interface ReportIncident {
  id: number;
  /** What failed, as the incident list names it: the site's name, or a bank account's bank and login. */
  subject: string;
  /** A check incident's site, process and mode; null on a bank incident. */
  site_id: number | null;
  process: EnumValue<typeof Process> | null;
  mode: EnumValue<typeof TestMode> | null;
  /** A bank incident's account; null on a check incident. */
  bank_account_id: number | null;
  /** Its status when the report was made. */
  status: IncidentStatusValue;
  opened_at: number;
  acknowledged_at: number | null;
  resolved_at: number | null;
  failures: number;
  /** acknowledged_at − opened_at. */
  ack_ms: number | null;
  /** resolved_at − opened_at. */
  resolve_ms: number | null;
}

export interface ReportIncidents {
  rows: ReportIncident[];
  /** Over the rows that reached it; null when none did. */
  ack_mean_ms: number | null;
  ack_worst_ms: number | null;
  resolve_mean_ms: number | null;
  resolve_worst_ms: number | null;
  /** Rows still unresolved when the report was made. */
  unresolved: number;
}

/** One bank account over the period, from its day rollups. */
export interface ReportBankAccount {
  account_id: number;
  bank_name: number;
  /** The account's login name (never a secret). */
  user: string;
  polls: number;
  polls_failed: number;
  /** Polls that started within BANK_ON_TIME_MS of their due second ÷ polls, 0..1; null without polls. */
  on_time_rate: number | null;
  /** Minutes the account was flagged stale in the period (ended episodes and the one open at the end). */
  stale_minutes: number;
  statements: number;
  /** Balance changes that did not match their statements. */
  unreconciled: number;
}

export interface ReportBank {
  accounts: ReportBankAccount[];
  /** The accounts' sums; on_time_rate over all their polls. */
  total: Omit<ReportBankAccount, 'account_id' | 'bank_name' | 'user'>;
}

export interface ReportDelivery {
  webhook: {
    sent: number;
    failed: number;
    /** sent ÷ (sent + failed); null when none ended. */
    success_rate: number | null;
    /** Accounts whose webhook was paused when the report was made. */
    paused_endpoints: number[];
  };
  /** Bank notices to Telegram that ended sent or failed. */
  telegram: { sent: number; failed: number };
}

/** Where a report went: the check chat, once. */
export interface ReportSending {
  channel: 'telegram';
  /** The chat as Telegram names it (a chat id, not a secret). */
  chat_id: string;
  sent_at: number;
  /** The summary message and the two documents went out. */
  documents: number;
}

/** GET /reports's rows. */
export const reportListFields = {
  ...keyOrderFields,
  period: field.enum(ReportPeriod, { sort: 'bounded', filter: 'bounded' }),
  /** The period's first day, inclusive (YYYY-MM-DD, configured zone). */
  start: field.text({ sort: 'bounded', filter: 'bounded' }),
  /** The period's last day, inclusive: a week from Monday 2026-11-30 ends Sunday 2026-12-06. */
  end: field.text({ sort: 'bounded' }),
  time_zone: field.text(),
  language: field.shown<ReportLanguage>(),
  generated_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
  /** Who asked for it ('Generate now'); null for the schedule. */
  generated_by: field.shown<{ id: number; nickname: string } | null>(),
  /** Empty when it was never sent (every report made by hand). */
  sent_to: field.shown<ReportSending[]>(),
  /** When its PDF was printed (the schedule prints it within a minute or two of its making); null until then. */
  pdf_at: field.shown<number | null>(),
} as const satisfies ListFields;
export type ReportRow = RowOf<typeof reportListFields>;

/** GET /reports/{id}: the row and the figures. */
export type Report = ReportRow & {
  sites: ReportSite[];
  /** Every site with runs, by day of the period (dates oldest first), as the dashboard's History reads it. */
  heatmap: Heatmap;
  maintenance: ReportMaintenance[];
  incidents: ReportIncidents;
  bank: ReportBank;
  delivery: ReportDelivery;
};

/** POST /reports's answer. */
export interface NewReport {
  id: number;
}

/** The console's page of a report, which the PDF printer opens (`?print=1`) and waits on. */
export const REPORT_READY_ATTRIBUTE = 'reportReady';
