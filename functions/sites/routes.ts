import { parseListQuery } from '../../shared/listQuery.js';
import { listQueryOf } from '../lib/http/listQueryOf.js';
import {
  AddAccountsBody,
  NewSiteBody,
  UpdateAccountBody,
  UpdateSiteBody,
  siteAccountListFields,
  siteListFields,
  siteTokenListFields,
} from '../../shared/schemas/sites.js';
import { clientIp } from '../auth/clientIp.js';
import { listReply } from '../lib/http/listReply.js';
import { type Request, Router } from '../lib/http/router.js';
import { REVEAL_AUDIT, revealAccountPassword } from './revealPassword.js';
import * as service from './service.js';

const id = (req: Request, name = 'id') => Number(req.params[name]);

export const sitesRouter = new Router()
  .get('/sites', async (req) => listReply(req, await service.listSites(listQueryOf(req, siteListFields))), {
    list: siteListFields,
  })
  // The picker's list: the list query of /sites, all rows unless a page size is asked for.
  .get('/sites/all', (req) => service.allSites(parseListQuery({ page_size: '0', ...req.query }, siteListFields)))
  .post('/sites', (req) => service.createSite(req.body), { body: NewSiteBody })
  .get(
    '/sites/accounts',
    async (req) => listReply(req, await service.listAccounts(listQueryOf(req, siteAccountListFields))),
    { list: siteAccountListFields },
  )
  .get(
    '/sites/accounts/tokens',
    async (req) => listReply(req, await service.listTokens(listQueryOf(req, siteTokenListFields))),
    { list: siteTokenListFields },
  )
  .get('/sites/accounts/:id/pwd', (req) => revealAccountPassword(req, id(req)), { audit: REVEAL_AUDIT })
  .put('/sites/accounts/:id', (req) => service.updateAccount(id(req), req.body), {
    body: UpdateAccountBody,
    audit: { target: 'site_account' },
  })
  .get('/sites/:id', (req) => service.getSite(id(req)))
  .put('/sites/:id', (req) => service.updateSite(id(req), req.body, { id: req.user.id, client_ip: clientIp(req) }), {
    body: UpdateSiteBody,
  })
  .get('/sites/:id/accounts', (req) => service.listSiteAccounts(id(req)))
  .post('/sites/:id/accounts', (req) => service.addAccounts(id(req), req.body), { body: AddAccountsBody });
