// The report's tables as data: each section declares its columns once, for the screen and the
// printed page alike (ReportTable draws them).
import { Bank, Process, TestMode } from '@shared/enums';
import { IncidentStatus } from '@shared/schemas/incidents';
import { MaintenanceMode } from '@shared/schemas/maintenance';
import type {
  ReportBankAccount,
  ReportIncident,
  ReportMaintenance,
  ReportProcessRow,
  ReportSite,
} from '@shared/schemas/reports';
import type { ReactNode } from 'react';
import { EMPTY_TEXT } from '@/app/constants';
import { formatInZone, formatMs } from '@/app/format';
import { percent } from '@/features/dashboard/panels/Panel';
import { t } from '@/i18n';
import { formatDuration, formatMinutes } from './reportFormat';
import type { ReportColumn } from './ReportTable';

/** A line of the sites table: a site's totals, then each of its processes. */
export interface SiteLine {
  site: ReportSite;
  /** Null on the site's totals line. */
  process: ReportProcessRow['process'] | null;
  figures: Omit<ReportProcessRow, 'process'>;
}

export const siteLines = (sites: readonly ReportSite[]): SiteLine[] =>
  sites.flatMap((site) => [
    { site, process: null, figures: site.total },
    ...site.processes.map((p) => ({ site, process: p.process, figures: p })),
  ]);

export const siteColumns: ReportColumn<SiteLine>[] = [
  { label: 'Site', cell: (l) => (l.process === null ? l.site.site_name : '') },
  { label: 'Process', cell: (l) => (l.process === null ? t('All processes') : t(Process.label(l.process))) },
  { label: 'Runs', numeric: true, cell: (l) => l.figures.runs },
  { label: 'Failed', numeric: true, cell: (l) => l.figures.failed },
  // Counted in Runs, left out of Success %.
  { label: 'In maintenance', numeric: true, cell: (l) => l.figures.maintenance_runs },
  { label: 'Success %', numeric: true, cell: (l) => percent(l.figures.success_rate) },
  { label: 'Flaky %', numeric: true, cell: (l) => percent(l.figures.flaky_rate) },
  { label: 'p50 (ms)', numeric: true, cell: (l) => formatMs(l.figures.p50_ms) },
  { label: 'p95 (ms)', numeric: true, cell: (l) => formatMs(l.figures.p95_ms) },
  {
    label: 'Maintenance',
    numeric: true,
    cell: (l) => (l.process === null ? formatMinutes(l.site.maintenance_minutes) : ''),
  },
];

/** Incidents' columns; `link` draws the id as a link to the incident (the screen, not paper). */
export const incidentColumns = (
  zone: string,
  link: (row: ReportIncident) => ReactNode,
): ReportColumn<ReportIncident>[] => [
  { label: 'Incident', cell: link },
  { label: 'Subject', cell: (i) => i.subject },
  {
    label: 'Process',
    // A bank account's incident has none.
    cell: (i) =>
      i.process === null
        ? EMPTY_TEXT
        : `${t(Process.label(i.process))}${i.mode === null ? '' : ` (${TestMode.label(i.mode)})`}`,
  },
  { label: 'Status', cell: (i) => t(IncidentStatus.label(i.status)) },
  { label: 'Opened At', cell: (i) => formatInZone(i.opened_at, zone) },
  { label: 'Failures', numeric: true, cell: (i) => i.failures },
  { label: 'Time to acknowledge', numeric: true, cell: (i) => formatDuration(i.ack_ms) },
  { label: 'Time to resolve', numeric: true, cell: (i) => formatDuration(i.resolve_ms) },
];

/** A bank line: an account, or (account_id null) the accounts' sums. */
export type BankLine = Omit<ReportBankAccount, 'account_id' | 'bank_name' | 'user'> &
  Partial<Pick<ReportBankAccount, 'bank_name' | 'user'>> & { account_id: number | null };

export const bankColumns: ReportColumn<BankLine>[] = [
  {
    label: 'Bank',
    cell: (a) => (a.account_id === null ? t('Total') : a.bank_name ? Bank.label(a.bank_name as never) : ''),
  },
  { label: 'Account', cell: (a) => a.user ?? '' },
  { label: 'Polls', numeric: true, cell: (a) => a.polls },
  { label: 'Failed polls', numeric: true, cell: (a) => a.polls_failed },
  { label: 'On time %', numeric: true, cell: (a) => percent(a.on_time_rate) },
  { label: 'Stale', numeric: true, cell: (a) => formatMinutes(a.stale_minutes) },
  { label: 'Statements', numeric: true, cell: (a) => a.statements },
  { label: 'Reconciliation differences', numeric: true, cell: (a) => a.unreconciled },
];

export const maintenanceColumns = (siteName: ReadonlyMap<number, string>): ReportColumn<ReportMaintenance>[] => [
  { label: 'Name', cell: (m) => m.name },
  { label: 'Mode', cell: (m) => t(MaintenanceMode.label(m.mode)) },
  {
    label: 'Sites',
    cell: (m) => (m.sites === 'all' ? t('All sites') : m.sites.map((id) => siteName.get(id) ?? `#${id}`).join(', ')),
  },
  { label: 'In force', numeric: true, cell: (m) => formatMinutes(m.minutes) },
];
