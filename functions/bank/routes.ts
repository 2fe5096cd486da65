import { listQueryOf } from '../lib/http/listQueryOf.js';
import {
  BatchSubAccountsBody,
  balanceStatListFields,
  bankAccountListFields,
  NewBankAccountBody,
  statementListFields,
  subAccountListFields,
  UpdateBankAccountBody,
  UpdateSubAccountBody,
} from '../../shared/schemas/bank.js';
import { listReply } from '../lib/http/listReply.js';
import { type Request, Router } from '../lib/http/router.js';
import { revealAudit, revealBankSecret } from './revealSecret.js';
import * as service from './service.js';

const id = (req: Request) => Number(req.params.id);

export const bankRouter = new Router()
  .get(
    '/bank/bank-accounts',
    async (req) => listReply(req, await service.listAccounts(listQueryOf(req, bankAccountListFields))),
    { list: bankAccountListFields },
  )
  .get('/bank/bank-accounts/:id', (req) => service.getAccountDetail(id(req)))
  .post('/bank/bank-accounts', (req) => service.createAccount(req.body), {
    body: NewBankAccountBody,
    audit: { target: 'bank_account' },
  })
  .put('/bank/bank-account/:id', (req) => service.updateAccount(id(req), req.body), {
    body: UpdateBankAccountBody,
    audit: { target: 'bank_account' },
  })
  .get('/bank/bank-account/:id/pwd', (req) => revealBankSecret(req, id(req), 'pwd'), { audit: revealAudit('pwd') })
  .get('/bank/bank-account/:id/api-key', (req) => revealBankSecret(req, id(req), 'api_key'), {
    audit: revealAudit('api_key'),
  })
  .post('/bank/bank-account/:id/refresh', (req) => service.refreshAccount(id(req)), {
    audit: { target: 'bank_account' },
  })
  .get('/bank/bank-account/:id/sub', (req) => service.accountSubs(id(req)))
  .post('/bank/bank-account/:id/refresh-sts', (req) => service.refreshAccountStatements(id(req)), {
    audit: { target: 'bank_account' },
  })
  .get(
    '/bank/sub-accounts',
    async (req) => listReply(req, await service.listSubs(listQueryOf(req, subAccountListFields))),
    { list: subAccountListFields },
  )
  .put('/bank/sub-accounts/batch', (req) => service.batchSubs(req.body), {
    body: BatchSubAccountsBody,
    audit: { target: 'bank_sub_account' },
  })
  .post('/bank/sub-accounts/:id/refresh-sts', (req) => service.refreshSubStatements(id(req)), {
    audit: { target: 'bank_sub_account' },
  })
  .put('/bank/sub-accounts/:id', (req) => service.updateSub(id(req), req.body), {
    body: UpdateSubAccountBody,
    audit: { target: 'bank_sub_account' },
  })
  .get(
    '/bank/statements',
    async (req) => listReply(req, await service.listStatements(listQueryOf(req, statementListFields))),
    { list: statementListFields },
  )
  .get(
    '/bank/balance-stat',
    async (req) => listReply(req, await service.listBalanceStats(listQueryOf(req, balanceStatListFields))),
    { list: balanceStatListFields },
  );
