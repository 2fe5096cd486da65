import type { ListQuery } from '../../shared/listQuery.js';
import type { AuditEntry } from '../../shared/schemas/audit.js';
import { clientIp } from '../auth/clientIp.js';
import type { ListOutcome } from '../lib/db/entity.js';
import type { AuditInput, AuditRecorder } from '../lib/http/apiHandler.js';
import { logger } from '../lib/logger.js';
import { auditSnapshot } from './snapshot.js';
import { auditEntries } from './store.js';

export type { AuditInput };

/**
 * Records one audited action: a row for the audit screen and a security log line for the log
 * pipeline. Callers pass who, what and where, never a secret's value. The row is written before
 * the audited result is handed out, so nothing is revealed without its trace.
 */
export async function recordAudit(entry: AuditInput): Promise<AuditEntry> {
  const row = await auditEntries.create({ ...entry, created_at: entry.at });
  const { input: _i, after: _a, ...line } = entry;
  logger.info('audit', { security: true, audit_id: row.id, ...line });
  return row;
}

/** What the API handler's audit step writes through (functions/lib/http/middlewares/audit.ts). */
export const auditRecorder: AuditRecorder = { record: recordAudit, snapshot: auditSnapshot, clientIp };

export function listAudit(query: ListQuery): Promise<ListOutcome<AuditEntry>> {
  return auditEntries.list(query);
}
