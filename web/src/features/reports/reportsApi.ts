import type { NewReport, NewReportBody, Report, ReportRow } from '@shared/schemas/reports';
import { queryOptions } from '@tanstack/react-query';
import { downloadFile } from '@/api/downloadFile';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';

/** The list's name: its query key root and its settings' storage key. */
export const REPORTS = 'reports';

export const reportQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.detail(REPORTS, id),
    // A report never changes once made: no refetch on focus or remount.
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) => request<Report>({ url: `/reports/${id}`, signal, failureTip: 'Fetch report failed.' }),
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
    `patrol-${report.period}-${report.start}.${kind}`,
    DOWNLOAD_FAILED[kind],
  );
