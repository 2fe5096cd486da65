import { listQueryOf } from '../lib/http/listQueryOf.js';
import { auditListFields } from '../../shared/schemas/audit.js';
import { listReply } from '../lib/http/listReply.js';
import { Router } from '../lib/http/router.js';
import { listAudit } from './service.js';

/** The audit trail, read-only for everyone (no route writes or deletes a row), shown to super users. */
export const auditRouter = new Router().get(
  '/super/audit',
  async (req) => listReply(req, await listAudit(listQueryOf(req, auditListFields))),
  { list: auditListFields, access: 'super' },
);
