// A report as one CSV file: a section per table (sites by process, maintenance, incidents, bank
// accounts, deliveries), each a title line, a header line and its rows, separated by an empty line.
// Headers are English whatever the report's language: scripts and spreadsheets key on them. Rates
// are percentages with one decimal, durations whole milliseconds or minutes, times ISO 8601 in UTC.

import { CSV_BOM, csvLines } from '../../shared/csvField.js';
import { Bank, Process, TestMode } from '../../shared/enums.js';
import { IncidentStatus } from '../../shared/schemas/incidents.js';
import type { Report } from '../../shared/schemas/reports.js';

const percent = (rate: number | null) => (rate === null ? '' : (rate * 100).toFixed(1));
const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/** e.g. 'patrol-report-week-2026-11-30.csv'. */
export const reportFileName = (r: Pick<Report, 'period' | 'start'>, ext: 'csv' | 'pdf') =>
  `patrol-report-${r.period}-${r.start}.${ext}`;

export function reportCsv(r: Report): string {
  const sections: (string | number | null)[][][] = [
    [
      ['Report', `${r.period} ${r.start} to ${r.end}`],
      ['Time zone', r.time_zone],
      ['Generated at', iso(r.generated_at)],
    ],
    [
      ['Sites'],
      [
        'Site',
        'Process',
        'Runs',
        'Passed',
        'Failed',
        'Flaky',
        'Slow',
        'Runs in maintenance',
        'Success %',
        'Flaky %',
        'p50 ms',
        'p95 ms',
        'Maintenance minutes',
      ],
      ...r.sites.flatMap((s) =>
        [{ ...s.total, process: null as number | null }, ...s.processes].map((p) => [
          s.site_name,
          p.process === null ? 'All' : Process.label(p.process as never),
          p.runs,
          p.passed,
          p.failed,
          p.flaky,
          p.degraded,
          p.maintenance_runs,
          percent(p.success_rate),
          percent(p.flaky_rate),
          p.p50_ms,
          p.p95_ms,
          p.process === null ? s.maintenance_minutes : null,
        ]),
      ),
    ],
    [
      ['Maintenance windows'],
      ['Window', 'Mode', 'Sites', 'Minutes'],
      ...r.maintenance.map((m) => [m.name, m.mode, m.sites === 'all' ? 'all' : m.sites.join(' '), m.minutes]),
    ],
    [
      ['Incidents'],
      [
        'Id',
        'Subject',
        'Process',
        'Mode',
        'Status',
        'Opened',
        'Acknowledged',
        'Resolved',
        'Failures',
        'Time to acknowledge ms',
        'Time to resolve ms',
      ],
      ...r.incidents.rows.map((i) => [
        i.id,
        i.subject,
        i.process === null ? '' : Process.label(i.process),
        i.mode === null ? '' : TestMode.label(i.mode),
        IncidentStatus.label(i.status),
        iso(i.opened_at),
        iso(i.acknowledged_at),
        iso(i.resolved_at),
        i.failures,
        i.ack_ms,
        i.resolve_ms,
      ]),
      ['Mean', '', '', '', '', '', '', '', '', r.incidents.ack_mean_ms, r.incidents.resolve_mean_ms],
      ['Worst', '', '', '', '', '', '', '', '', r.incidents.ack_worst_ms, r.incidents.resolve_worst_ms],
    ],
    [
      ['Bank accounts'],
      [
        'Bank',
        'Account',
        'Polls',
        'Failed polls',
        'On time %',
        'Stale minutes',
        'Statements',
        'Reconciliation differences',
      ],
      ...[...r.bank.accounts, { ...r.bank.total, account_id: 0, bank_name: 0, user: 'All' }].map((a) => [
        a.account_id ? Bank.label(a.bank_name as never) : '',
        a.user,
        a.polls,
        a.polls_failed,
        percent(a.on_time_rate),
        a.stale_minutes,
        a.statements,
        a.unreconciled,
      ]),
    ],
    [
      ['Deliveries'],
      ['Channel', 'Sent', 'Failed', 'Success %', 'Paused endpoints'],
      [
        'Webhook',
        r.delivery.webhook.sent,
        r.delivery.webhook.failed,
        percent(r.delivery.webhook.success_rate),
        r.delivery.webhook.paused_endpoints.length,
      ],
      ['Telegram', r.delivery.telegram.sent, r.delivery.telegram.failed, '', ''],
    ],
  ];
  return CSV_BOM + sections.map((rows) => csvLines(rows)).join('\r\n');
}
