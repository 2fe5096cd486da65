import { IncidentActionBody, incidentListFields } from '../../shared/schemas/incidents.js';
import { listQueryOf } from '../lib/http/listQueryOf.js';
import { listReply } from '../lib/http/listReply.js';
import { type Request, Router } from '../lib/http/router.js';
import * as service from './service.js';

const id = (req: Request) => Number(req.params.id);

/**
 * Incidents (issue 27): the list protocol, one incident with its timeline, and what people do to
 * one. `deps` come from the entry point (functions/api.ts): the check engine to re-run with.
 */
export const incidentsRouter = (deps: service.IncidentDeps) =>
  new Router()
    .get(
      '/incidents',
      async (req) => listReply(req, await service.listIncidents(listQueryOf(req, incidentListFields))),
      {
        list: incidentListFields,
      },
    )
    .get('/incidents/:id', (req) => service.getIncident(id(req)))
    .post('/incidents/:id/action', (req) => service.actOnIncident(id(req), req.body, req.user, 'console', deps), {
      body: IncidentActionBody,
      audit: { action: 'incident.action', target: 'incident' },
    });
