import { listQueryOf } from '../lib/http/listQueryOf.js';
import { SystemConfig, systemConfigVersionFields } from '../../shared/schemas/systemConfig.js';
import { listReply } from '../lib/http/listReply.js';
import { Router } from '../lib/http/router.js';
import {
  getSystemConfigVersion,
  listSystemConfigVersions,
  readSystemConfig,
  readSystemConfigState,
  restoreSystemConfigVersion,
  saveSystemConfig,
} from './service.js';

/** The system config: the super area edits it (spec: GET and POST /super/system-config), the shell reads it. */
export const systemConfigRouter = new Router()
  .get('/system-config', () => readSystemConfig())
  .get('/super/system-config', () => readSystemConfigState(), { access: 'super' })
  .post('/super/system-config', ({ user, body }) => saveSystemConfig(user, body), {
    access: 'super',
    body: SystemConfig,
  })
  .get(
    '/super/system-config/versions',
    async (req) => listReply(req, await listSystemConfigVersions(listQueryOf(req, systemConfigVersionFields))),
    { list: systemConfigVersionFields, access: 'super' },
  )
  .get('/super/system-config/versions/:id', ({ params }) => getSystemConfigVersion(params.id), {
    access: 'super',
  })
  .post(
    '/super/system-config/versions/:id/restore',
    ({ user, params }) => restoreSystemConfigVersion(user, params.id),
    { access: 'super' },
  );
