import { z } from 'zod';
import type { BalanceStat, BankAccountStatusValue } from './bank.js';

// GET /dashboard/bank and /dashboard/delivery (issue 26 items 4, 5): the bank monitor's and the
// bank deliveries' figures over the last `hours`, read from the daily rollups per account
// (docs/bank-monitor.md "Rollups"), never from log rows. Day figures cover the whole days (in the
// configured time zone) the window touches; statements also come per hour.

export const DASHBOARD_HOURS_MAX = 24 * 30;

/** `?hours=24`: 1 to 720 whole hours; 24 when absent. */
export const DashboardHoursQuery = z.object({
  hours: z.coerce
    .number({ error: `hours must be a whole number from 1 to ${DASHBOARD_HOURS_MAX}` })
    .int(`hours must be a whole number from 1 to ${DASHBOARD_HOURS_MAX}`)
    .min(1, `hours must be a whole number from 1 to ${DASHBOARD_HOURS_MAX}`)
    .max(DASHBOARD_HOURS_MAX, `hours must be a whole number from 1 to ${DASHBOARD_HOURS_MAX}`)
    .default(24),
});
export type DashboardHoursQuery = z.infer<typeof DashboardHoursQuery>;

interface DashboardWindow {
  hours: number;
  /** The window asked for (ms). */
  from: number;
  to: number;
  /** The days (YYYY-MM-DD, configured zone) whose figures are counted. */
  days: string[];
}

/** GET /dashboard/bank?hours=24. */
export interface BankDashboard extends DashboardWindow {
  accounts_by_status: { status: BankAccountStatusValue; count: number }[];
  /** Ids of the accounts flagged stale now. */
  stale: number[];
  /** Balance changes that did not match their statements: how many in the days counted, and the newest in the window. */
  unreconciled: { count: number; latest: BalanceStat | null };
  /** p95 of how late polls started after their due second (ms), from the days' lag sketches; null without polls. */
  poll_lag_p95_ms: number | null;
  polls: number;
  polls_failed: number;
  /** Statements stored in the window, and per hour of the configured zone (for the bar chart). */
  statements: { total: number; per_hour: { day: string; hour: number; count: number }[] };
  /** When each account's newest statement was stored (ms), accounts with one. */
  last_statement_at: { account_id: number; at: number }[];
}

/** GET /dashboard/delivery?hours=24: final outcomes of deliveries (retries are not counted apart). */
export interface DeliveryDashboard extends DashboardWindow {
  webhook: {
    sent: number;
    failed: number;
    /** sent ÷ (sent + failed); null when none ended. */
    success_rate: number | null;
    /** Accounts whose webhook is paused after repeated failures. */
    paused_endpoints: number[];
  };
  telegram: { sent: number; failed: number };
}
