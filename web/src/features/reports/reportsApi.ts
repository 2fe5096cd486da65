import type { NewReport, NewReportBody, Report, ReportRow } from '@shared/schemas/reports';
import { queryOptions } from '@tanstack/react-query';
import { downloadFile } from '@/api/downloadFile';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/** The list's name: its query key root and its settings' storage key. */
export const REPORTS = 'reports';

/** How often a report whose PDF is not printed yet is read again, to learn when it is. */
export const PDF_POLL_MS = 10_000;

/**
 * A report. Its figures never change once made (no refetch on focus or remount); only its PDF comes
 * later, printed within a minute or two, so the screen (`watchPdf`) reads it again until it has one.
 */
export const reportQuery = (id: number, watchPdf = false) =>
  queryOptions({
    queryKey: queryKeys.detail(REPORTS, id),
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) => request<Report>({ url: `/reports/${id}`, signal, failureTip: 'Fetch report failed.' }),
    refetchInterval: (query) => (watchPdf && query.state.data?.pdf_at === null ? PDF_POLL_MS : false),
  });

/** POST /reports: the report of one past period, made now and never sent. */
export const createReport = (body: NewReportBody) =>
  request<NewReport>({
    method: 'POST',
    url: '/reports',
    data: body,
    successTip: 'Report generated',
    failureTip: 'Generate report failed',
  });

export type ReportFile = 'csv' | 'pdf';

const DOWNLOAD_FAILED: Record<ReportFile, string> = {
  csv: 'Download CSV failed',
  pdf: 'Download PDF failed',
};

/** The report's CSV or PDF, saved under the server's file name (the session goes with the call). */
export const downloadReport = (report: Pick<ReportRow, 'id' | 'period' | 'start'>, kind: ReportFile) =>
  downloadFile(
    `/reports/${report.id}/${kind}`,
    `patrol-report-${report.period}-${report.start}.${kind}`,
    DOWNLOAD_FAILED[kind],
  );
