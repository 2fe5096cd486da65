// Where reports live: a small row per report (what GET /reports lists, ~0.5 KB), its figures as
// gzipped JSON in the video bucket (`reports/<id>.json.gz`: a 100-site month is ~200 KB of JSON, over
// what a list should read per row and near DynamoDB's item limit) and its PDF beside them
// (`reports/<id>.pdf`). The row expires with the `reports` retention and takes both files with it
// (functions/data/expiredFiles.ts); the bucket's `reports/` lifecycle rule is the backstop.

import { gunzipSync, gzipSync } from 'node:zlib';
import type { ListQuery } from '../../shared/listQuery.js';
import type { StoredOf } from '../../shared/listFields.js';
import { type Report, type ReportSending, reportListFields } from '../../shared/schemas/reports.js';
import { defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { newIdOf } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { deleteObject, getObject, putObject } from '../lib/storage/objects.js';
import { ReportNotFoundError } from './errors.js';

/** The row: the list's fields, the files' keys, and what it cost to compute. */
export type StoredReport = StoredOf<
  typeof reportListFields,
  { body_key: string; pdf_key: string | null; generated_by_id: number | null; consumed_rcu: number }
>;
export type NewStoredReport = Omit<
  StoredReport,
  'id' | 'created_at' | 'updated_at' | 'body_key' | 'pdf_key' | 'pdf_at'
>;

export type ReportBody = Omit<Report, keyof typeof reportListFields>;

export const reportEntity = defineEntity<StoredReport>({
  type: 'report',
  fields: reportListFields,
  hidden: ['body_key', 'pdf_key', 'generated_by_id', 'consumed_rcu'],
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
}

const bodyKey = (id: number) => `reports/${id}.json.gz`;
const pdfKey = (id: number) => `reports/${id}.pdf`;

export function dynamoReportStore(repo: DynamoRepository<StoredReport> = createRepository(reportEntity)): ReportStore {
  const withHidden = async (id: number) => {
    const row = await repo.getWithHidden(id);
    if (!row) throw new ReportNotFoundError(id);
    return row;
  };
  return {
    async create(row, body) {
      const id = await newIdOf(reportEntity);
      await putObject(bodyKey(id), gzipSync(JSON.stringify(body)), 'application/gzip');
      try {
        return await repo.create({ ...row, body_key: bodyKey(id), pdf_key: null, pdf_at: null }, { id });
      } catch (error) {
        await deleteObject(bodyKey(id)).catch(() => undefined);
        throw error;
      }
    },
    get: (id) => repo.getWithHidden(id),
    list: (query) => repo.list(query),
    async body(row) {
      const bytes = await getObject(row.body_key);
      if (!bytes) throw new ReportNotFoundError(row.id);
      return JSON.parse(gunzipSync(bytes).toString('utf8')) as ReportBody;
    },
    async pdf(row) {
      return row.pdf_key ? getObject(row.pdf_key) : undefined;
    },
    async savePdf(id, bytes) {
      await withHidden(id);
      await putObject(pdfKey(id), bytes, 'application/pdf');
      return repo.update(id, { pdf_key: pdfKey(id), pdf_at: Date.now() });
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
