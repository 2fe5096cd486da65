import { HEADERS } from '../../shared/envelope.js';
import { NewReportBody, reportListFields } from '../../shared/schemas/reports.js';
import { listQueryOf } from '../lib/http/listQueryOf.js';
import { listReply } from '../lib/http/listReply.js';
import { RawReply, Router } from '../lib/http/router.js';
import { reportFileName } from './csv.js';
import { generateReport, getReport, getReportCsv, getReportPdf, listReports } from './service.js';

/**
 * Generate now reads up to a few hundred read units a report (docs/reports.md): 20 an hour a user is
 * more than a person asks for and keeps a stuck script from reading the table all day.
 */
const GENERATE_LIMIT = { rule: { name: 'report-generate', limit: 20, windowSeconds: 3600 }, what: 'reports generated' };

/** A download's headers: its type, a file name, and no caching of a report's figures on the way. */
const download = (contentType: string, fileName: string) => ({
  'content-type': contentType,
  'content-disposition': `attachment; filename="${fileName}"`,
  'cache-control': 'no-store',
});

/**
 * Reports (issue 46 item 1): viewers and above read them; operators and above generate one for a
 * past period (POST: computed now, never sent; the schedule sends, functions/reports/schedule.ts).
 */
export const reportsRouter = new Router()
  .get('/reports', async (req) => listReply(req, await listReports(listQueryOf(req, reportListFields))), {
    list: reportListFields,
  })
  .post(
    '/reports',
    async (req) => {
      const { id, rcu } = await generateReport(req.body, req.user);
      // What computing it read (the bench and the tests hold a week to a budget).
      req.setHeader(HEADERS.consumedCapacity, String(rcu));
      return { id };
    },
    { body: NewReportBody, rateLimit: GENERATE_LIMIT },
  )
  .get('/reports/:id', (req) => getReport(req.params.id))
  .get('/reports/:id/csv', async (req) => {
    const { report, csv } = await getReportCsv(req.params.id);
    return new RawReply(200, csv, download('text/csv; charset=utf-8', reportFileName(report, 'csv')));
  })
  .get('/reports/:id/pdf', async (req) => {
    const { report, pdf } = await getReportPdf(req.params.id);
    return new RawReply(200, pdf.toString('base64'), download('application/pdf', reportFileName(report, 'pdf')), true);
  });
