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
import { Router } from '../lib/http/router.js';
import { REVEAL_AUDIT, REVEAL_LIMIT, revealAccountPassword } from './revealPassword.js';
import * as service from './service.js';

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
  .get('/sites/accounts/:id/pwd', (req) => revealAccountPassword(req.params.id), {
    audit: REVEAL_AUDIT,
    rateLimit: REVEAL_LIMIT,
  })
  .put('/sites/accounts/:id', (req) => service.updateAccount(req.params.id, req.body), {
    body: UpdateAccountBody,
    audit: { target: 'site_account' },
  })
  .get('/sites/:id', (req) => service.getSite(req.params.id))
  .put(
    '/sites/:id',
    (req) => service.updateSite(req.params.id, req.body, { id: req.user.id, client_ip: clientIp(req) }),
    {
      body: UpdateSiteBody,
    },
  )
  .get('/sites/:id/accounts', (req) => service.listSiteAccounts(req.params.id))
  .post('/sites/:id/accounts', (req) => service.addAccounts(req.params.id, req.body), { body: AddAccountsBody });
