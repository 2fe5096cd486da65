import { declaredRow } from '../../shared/listFields.js';
import type { ListQuery } from '../../shared/listQuery.js';
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

/** The report's PDF: the stored one, or printed now (and stored) the first time it is asked for. */
export async function getReportPdf(id: number): Promise<{ report: ReportRow; pdf: Buffer }> {
  const stored = await row(id);
  const kept = await reportStore().pdf(stored);
  if (kept) return { report: toRow(stored), pdf: kept };
  const pdf = await printReportPdf(id, stored.language);
  await reportStore().savePdf(id, pdf);
  return { report: toRow(stored), pdf };
}
