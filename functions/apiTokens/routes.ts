import { apiTokenListFields, NewApiTokenBody } from '../../shared/schemas/apiTokens.js';
import { listQueryOf } from '../lib/http/listQueryOf.js';
import { listReply } from '../lib/http/listReply.js';
import { Router } from '../lib/http/router.js';
import { createApiToken, listApiTokens, revokeApiToken } from './service.js';

// The create's reply holds the token itself, once: its audit row keeps the reply with secret-named
// keys dropped (audit/snapshot.ts), and `token` is one of them.
const AUDIT = { target: 'api_token' };

/** API tokens of the super area (issue 46 item 2). */
export const apiTokensRouter = new Router()
  .get('/super/tokens', async (req) => listReply(req, await listApiTokens(listQueryOf(req, apiTokenListFields))), {
    access: 'super',
    list: apiTokenListFields,
  })
  .post('/super/tokens', (req) => createApiToken(req.body, req.user), {
    access: 'super',
    body: NewApiTokenBody,
    audit: AUDIT,
  })
  .delete('/super/tokens/:id', (req) => revokeApiToken(req.params.id), { access: 'super', audit: AUDIT });
