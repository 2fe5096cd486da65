import { listQueryOf } from '../lib/http/listQueryOf.js';
import {
  MaintenanceBody,
  MaintenanceNowBody,
  maintenanceListFields,
  UpdateMaintenanceBody,
} from '../../shared/schemas/maintenance.js';
import { listReply } from '../lib/http/listReply.js';
import { type Request, Router } from '../lib/http/router.js';
import * as service from './service.js';

const id = (req: Request) => Number(req.params.id);
const AUDIT = { target: 'maintenance' };
/**
 * New windows per user in an hour (issue 43), one budget for the form and the one-click window; the
 * incident's button extends its own window instead (service.extendMaintenanceNow).
 */
const CREATE_LIMIT = {
  rule: { name: 'maintenance-create', limit: 60, windowSeconds: 3600 },
  what: 'new maintenance windows',
};

/** Maintenance windows (issue 27): the list protocol, CRUD, and the one-click window of a site. */
export const maintenanceRouter = new Router()
  .get(
    '/maintenance',
    async (req) => listReply(req, await service.listMaintenance(listQueryOf(req, maintenanceListFields))),
    { list: maintenanceListFields },
  )
  .post('/maintenance', (req) => service.createMaintenance(req.body, req.user), {
    body: MaintenanceBody,
    audit: AUDIT,
    rateLimit: CREATE_LIMIT,
  })
  // Before /:id: 'now' is no window id (ids are numeric anyway).
  .post('/maintenance/now', (req) => service.startMaintenanceNow(req.body, req.user), {
    body: MaintenanceNowBody,
    audit: AUDIT,
    rateLimit: CREATE_LIMIT,
  })
  .get('/maintenance/:id', (req) => service.getMaintenance(id(req)))
  .put('/maintenance/:id', (req) => service.updateMaintenance(id(req), req.body), {
    body: UpdateMaintenanceBody,
    audit: AUDIT,
  })
  .delete('/maintenance/:id', (req) => service.deleteMaintenance(id(req)), { audit: AUDIT });
