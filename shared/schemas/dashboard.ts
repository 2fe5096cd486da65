import { z } from 'zod';
import type { EnumValue, Process, RunStatus, TestMode } from '../enums.js';

// The home dashboard's API (issue 26 item 5): one definition of every answer for the routes in
// functions/dashboard/ and the panels of web/src/features/dashboard/. Each answer is read from kept
// rollups, never from log rows, and carries the x-consumed-rcu header.

export const DashboardMessages = {
  days: 'days must be 7, 30 or 90',
  heatmapDays: 'days must be a whole number from 1 to 90',
  hours: 'hours must be a whole number from 1 to 168',
  site: 'site_id must be a site id',
} as const;

/** The Health panel's switch. */
export const SCORECARD_DAYS = [7, 30, 90] as const;
export type ScorecardDays = (typeof SCORECARD_DAYS)[number];

const wholeNumber = (message: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Number(v)),
    z.number({ error: message }).int(message).min(min, message).max(max, message).default(fallback),
  );

const asNumber = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v));

/** 7, 30 or 90 days, else the spec-like message; `fallback` when absent. */
const windowDays = (fallback: ScorecardDays) =>
  z.preprocess(
    asNumber,
    z
      .union(
        SCORECARD_DAYS.map((d) => z.literal(d)),
        { error: DashboardMessages.days },
      )
      .default(fallback),
  );

/** GET /dashboard/scorecard?days=7|30|90 (default 7). */
export const ScorecardQuery = z.object({ days: windowDays(7) });
export type ScorecardQuery = z.infer<typeof ScorecardQuery>;

/** GET /dashboard/heatmap?days=1..90 (default 90). */
export const HeatmapQuery = z.object({ days: wholeNumber(DashboardMessages.heatmapDays, 1, 90, 90) });
export type HeatmapQuery = z.infer<typeof HeatmapQuery>;

/** GET /dashboard/timings?site_id=&days=7|30|90 (default 30). */
export const TimingsQuery = z.object({
  site_id: z.preprocess(
    asNumber,
    z.number({ error: DashboardMessages.site }).int(DashboardMessages.site).positive(DashboardMessages.site),
  ),
  days: windowDays(30),
});
export type TimingsQuery = z.infer<typeof TimingsQuery>;

/** GET /dashboard/bank?hours= and /dashboard/delivery?hours= (default 24). */
export const HoursQuery = z.object({ hours: wholeNumber(DashboardMessages.hours, 1, 168, 24) });

/** One (site, process, mode) over the chosen days. */
export interface ScorecardRow {
  site_id: number;
  site_name: string;
  process: EnumValue<typeof Process>;
  mode: EnumValue<typeof TestMode>;
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  degraded: number;
  /** passed ÷ runs, 0..1; null without runs. */
  pass_rate: number | null;
  /** flaky ÷ runs, 0..1; null without runs. */
  flake_rate: number | null;
  /** Of the passes' durations; null without passes. */
  p50_ms: number | null;
  p95_ms: number | null;
  /** The latest ended subtask's status (Done or Failed), even from before the window; null if none. */
  last_status: EnumValue<typeof RunStatus> | null;
  last_at: number | null;
}

/** One site and day (configured zone, 'YYYY-MM-DD') with runs. */
export interface HeatmapCell {
  site_id: number;
  date: string;
  runs: number;
  failed: number;
  flaky: number;
  degraded: number;
}

/** p50/p95 of one process's passes (both modes) on one day of one site. */
export interface TimingPoint {
  date: string;
  process: EnumValue<typeof Process>;
  runs: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

// The bank and delivery panels (their routes belong to the bank monitor; issue 26 item 5).

export const BankDashboard = z.object({
  /** Bank account status value ('1' Enable, '2' Incorrect, ...) -> number of accounts. */
  accounts_by_status: z.record(z.string(), z.number().int().nonnegative()),
  /** Ids of accounts whose statements are overdue (monitoring stale). */
  stale: z.array(z.number().int()),
  /** Balance changes no statement explains. */
  unreconciled: z.object({
    count: z.number().int().nonnegative(),
    /** The newest one; null when there is none. */
    latest: z
      .object({ account_id: z.number().int(), amount: z.string(), at: z.number().int() })
      .passthrough()
      .nullable(),
  }),
  poll_lag_p95_ms: z.number().nullable(),
  /** Statements per hour of the window, oldest first ('hour' is the epoch ms of its start). */
  statements: z.array(z.object({ hour: z.number().int(), count: z.number().int().nonnegative() })),
  last_statement_at: z.array(z.object({ account_id: z.number().int(), at: z.number().int().nullable() })),
});
export type BankDashboard = z.infer<typeof BankDashboard>;

export const DeliveryDashboard = z.object({
  webhooks: z.object({
    sent: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    /** sent ÷ (sent + failed), 0..1; null without deliveries. */
    success_rate: z.number().nullable(),
    /** Ids of the webhook endpoints (bank accounts) whose delivery is paused. */
    paused_endpoints: z.array(z.number().int()),
  }),
  telegram: z.object({
    sent: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
});
export type DeliveryDashboard = z.infer<typeof DeliveryDashboard>;
