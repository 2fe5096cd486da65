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
import { withMaskedUrls } from '../../shared/maskUrl.js';
import { listReply } from '../lib/http/listReply.js';
import { type AuthUser, Router } from '../lib/http/router.js';
import { REVEAL_LIMIT, revealAudit, revealBankSecret } from './revealSecret.js';
import { bankStore } from './store.js';
import * as service from './service.js';

/** An account as its reader may see it: a viewer gets the webhook URL masked (shared/maskUrl.ts, issue 43). */
const forReader = <T extends { webhook: string | null }>(user: AuthUser, row: T): T =>
  user.role === 'viewer' ? withMaskedUrls(row, ['webhook']) : row;

export const bankRouter = new Router()
  .get(
    '/bank/bank-accounts',
    async (req) => {
      const page = await service.listAccounts(listQueryOf(req, bankAccountListFields));
      return listReply(req, { ...page, result: page.result.map((row) => forReader(req.user, row)) });
    },
    { list: bankAccountListFields },
  )
  .get('/bank/bank-accounts/:id', async (req) => forReader(req.user, await service.getAccountDetail(req.params.id)))
  .post('/bank/bank-accounts', (req) => service.createAccount(req.body), {
    body: NewBankAccountBody,
    audit: { target: 'bank_account' },
  })
  .put('/bank/bank-account/:id', (req) => service.updateAccount(req.params.id, req.body), {
    body: UpdateBankAccountBody,
    audit: { target: 'bank_account' },
  })
  .get('/bank/bank-account/:id/pwd', (req) => revealBankSecret(bankStore(), req.params.id, 'pwd'), {
    audit: revealAudit('pwd'),
    rateLimit: REVEAL_LIMIT,
  })
  .get('/bank/bank-account/:id/api-key', (req) => revealBankSecret(bankStore(), req.params.id, 'api_key'), {
    audit: revealAudit('api_key'),
    rateLimit: REVEAL_LIMIT,
  })
  .post('/bank/bank-account/:id/refresh', (req) => service.refreshAccount(req.params.id), {
    audit: { target: 'bank_account' },
  })
  .get('/bank/bank-account/:id/sub', (req) => service.accountSubs(req.params.id))
  .post('/bank/bank-account/:id/refresh-sts', (req) => service.refreshAccountStatements(req.params.id), {
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
  .post('/bank/sub-accounts/:id/refresh-sts', (req) => service.refreshSubStatements(req.params.id), {
    audit: { target: 'bank_sub_account' },
  })
  .put('/bank/sub-accounts/:id', (req) => service.updateSub(req.params.id, req.body), {
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
