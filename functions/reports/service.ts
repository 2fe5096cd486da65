import { declaredRow } from '../../shared/listFields.js';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import {
  type NewReport,
  type NewReportBody,
  type Report,
  type ReportPeriodValue,
  type ReportRow,
  ReportMessages,
  reportListFields,
} from '../../shared/schemas/reports.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { ConflictError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { computeReport } from './compute.js';
import { reportCsv } from './csv.js';
import { ReportNotFoundError, ReportPeriodError } from './errors.js';
import { periodDays, periodEnded } from './period.js';
import { printReportPdf } from './printPdf.js';
import { type ReportBody, type StoredReport, reportStore } from './store.js';

const toRow = (r: StoredReport): ReportRow => declaredRow(reportListFields, r) as ReportRow;

async function row(id: number): Promise<StoredReport> {
  const found = await reportStore().get(id);
  if (!found) throw new ReportNotFoundError(id);
  return found;
}

/**
 * Computes and stores the report of one period. `by` is who asked (null: the schedule); nothing is
 * sent from here. Answers the stored row and the read units computing it cost.
 */
export async function createReport(
  period: ReportPeriodValue,
  start: string,
  by: Pick<AuthUser, 'id' | 'nickname'> | null,
  now = Date.now(),
): Promise<{ row: StoredReport; rcu: number }> {
  const { figures, rcu } = await computeReport(period, start, now);
  const { sites, heatmap, maintenance, incidents, bank, delivery, ...head } = figures;
  const body: ReportBody = { sites, heatmap, maintenance, incidents, bank, delivery };
  const stored = await reportStore().create(
    {
      ...head,
      generated_by: by ? { id: by.id, nickname: by.nickname } : null,
      generated_by_id: by?.id ?? null,
      sent_to: [],
      consumed_rcu: rcu,
    },
    body,
  );
  return { row: stored, rcu };
}

/** POST /reports: a past period's report now, never sent. */
export async function generateReport(
  body: NewReportBody,
  user: AuthUser,
  now = Date.now(),
): Promise<NewReport & { rcu: number }> {
  const { time_zone } = await getSystemConfig();
  if (!periodEnded(periodDays(body.period, body.start, time_zone), now))
    throw new ReportPeriodError(ReportMessages.notPast);
  const { row: stored, rcu } = await createReport(body.period, body.start, user, now);
  return { id: stored.id, rcu };
}

export async function listReports(query: ListQuery): Promise<ListOutcome<ReportRow>> {
  const outcome = await reportStore().list(query);
  return { ...outcome, result: outcome.result.map(toRow) };
}

export async function getReport(id: number): Promise<Report> {
  const stored = await row(id);
  return { ...toRow(stored), ...(await reportStore().body(stored)) };
}

export async function getReportCsv(id: number): Promise<{ report: Report; csv: string }> {
  const report = await getReport(id);
  return { report, csv: reportCsv(report) };
}

/**
 * The report's PDF, once printed. The schedule prints it (a Chromium the API does not carry), within
 * a minute or two of the report's making: until then a 409 says to try again.
 */
export async function getReportPdf(id: number): Promise<{ report: ReportRow; pdf: Buffer }> {
  const stored = await row(id);
  const kept = await reportStore().pdf(stored);
  if (!kept) throw new ConflictError('The PDF is still being printed; try again in a minute');
  return { report: toRow(stored), pdf: kept };
}

/** A report whose PDF failed to print this often is left unprinted (a console build without the page). */
export const PRINT_ATTEMPTS = 3;

/** Prints a report's PDF and keeps it (the schedule's work: functions/reports/scheduler.ts). */
export async function printReport(id: number): Promise<StoredReport> {
  const stored = await row(id);
  if (stored.pdf_key) return stored;
  try {
    return await reportStore().savePdf(id, await printReportPdf(id, stored.language));
  } catch (error) {
    await reportStore().printFailed(id, (stored.print_attempts ?? 0) + 1);
    throw error;
  }
}

/** Reports made within `sinceMs` whose PDF is not printed yet, oldest first. */
export async function unprintedReports(now: number, sinceMs: number): Promise<number[]> {
  const page = await reportStore().list(
    emptyListQuery({ page_size: 0, filters: { created_at: { kind: 'range', start: now - sinceMs } } }),
  );
  return page.result
    .filter((r) => r.pdf_at === null && (r.print_attempts ?? 0) < PRINT_ATTEMPTS)
    .map((r) => r.id)
    .sort((a, b) => a - b);
}
