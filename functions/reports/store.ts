// Where reports live: a small row per report (what GET /reports lists, ~0.5 KB); its figures apart, as
// gzipped JSON in a row of their own under the same id (a 100-site month is ~200 KB of JSON, ~25 KB
// gzipped: too much for a list to read per row, well under DynamoDB's item limit), both expiring with
// the `reports` retention; its PDF in the video bucket (`reports/<id>.pdf`), written by the schedule's
// printer (the API never writes to the bucket) and removed with the row (functions/data/expiredFiles.ts),
// the bucket's `reports/` lifecycle rule being the backstop.

import { gunzipSync, gzipSync } from 'node:zlib';
import type { ListQuery } from '../../shared/listQuery.js';
import { keyOrderFields, type StoredOf } from '../../shared/listFields.js';
import { type Report, type ReportSending, reportListFields } from '../../shared/schemas/reports.js';
import { defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { newIdOf } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { getObject, putObject } from '../lib/storage/objects.js';
import { ReportNotFoundError } from './errors.js';

/** The row: the list's fields, the files' keys, and what it cost to compute. */
export type StoredReport = StoredOf<
  typeof reportListFields,
  {
    pdf_key: string | null;
    generated_by_id: number | null;
    consumed_rcu: number;
    /** Failed prints so far: the schedule gives up after PRINT_ATTEMPTS (a console build without the page). */
    print_attempts?: number;
  }
>;
/** A report's figures: gzipped JSON, base64. */
type StoredReportBody = { id: number; created_at: number; gz: string; updated_at?: number };
export type NewStoredReport = Omit<StoredReport, 'id' | 'created_at' | 'updated_at' | 'pdf_key' | 'pdf_at'>;

export type ReportBody = Omit<Report, keyof typeof reportListFields>;

export const reportEntity = defineEntity<StoredReport>({
  type: 'report',
  fields: reportListFields,
  hidden: ['pdf_key', 'generated_by_id', 'consumed_rcu'],
  retention: 'reports',
});

export const reportBodyEntity = defineEntity<StoredReportBody>({
  type: 'report_body',
  fields: keyOrderFields,
  hidden: ['gz'],
  retention: 'reports',
});

export interface ReportStore {
  /** Writes the figures first, then the row: a row never names figures that are not there. */
  create(row: NewStoredReport, body: ReportBody): Promise<StoredReport>;
  get(id: number): Promise<StoredReport | undefined>;
  list(query: ListQuery): Promise<ListOutcome<StoredReport>>;
  body(row: StoredReport): Promise<ReportBody>;
  pdf(row: StoredReport): Promise<Buffer | undefined>;
  savePdf(id: number, bytes: Buffer): Promise<StoredReport>;
  markSent(id: number, sent: ReportSending[]): Promise<StoredReport>;
  printFailed(id: number, attempts: number): Promise<void>;
}

const pdfKey = (id: number) => `reports/${id}.pdf`;

export function dynamoReportStore(
  repo: DynamoRepository<StoredReport> = createRepository(reportEntity),
  bodies: DynamoRepository<StoredReportBody> = createRepository(reportBodyEntity),
): ReportStore {
  const withHidden = async (id: number) => {
    const row = await repo.getWithHidden(id);
    if (!row) throw new ReportNotFoundError(id);
    return row;
  };
  return {
    async create(row, body) {
      const id = await newIdOf(reportEntity);
      await bodies.create({ gz: gzipSync(JSON.stringify(body)).toString('base64') }, { id });
      try {
        return await repo.create({ ...row, pdf_key: null, pdf_at: null }, { id });
      } catch (error) {
        await bodies.remove(id).catch(() => undefined);
        throw error;
      }
    },
    get: (id) => repo.getWithHidden(id),
    list: (query) => repo.list(query),
    async body(row) {
      const stored = await bodies.getWithHidden(row.id);
      if (!stored) throw new ReportNotFoundError(row.id);
      return JSON.parse(gunzipSync(Buffer.from(stored.gz, 'base64')).toString('utf8')) as ReportBody;
    },
    async pdf(row) {
      return row.pdf_key ? getObject(row.pdf_key) : undefined;
    },
    async savePdf(id, bytes) {
      await withHidden(id);
      await putObject(pdfKey(id), bytes, 'application/pdf');
      return repo.update(id, { pdf_key: pdfKey(id), pdf_at: Date.now() });
    },
    async printFailed(id, attempts) {
      await repo.update(id, { print_attempts: attempts });
    },
    async markSent(id, sent) {
      await withHidden(id);
      return repo.update(id, { sent_to: sent });
    },
  };
}

let store: ReportStore | undefined;
export function reportStore(): ReportStore {
  store ??= dynamoReportStore();
  return store;
}
