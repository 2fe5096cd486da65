import { AlertRuleBody, AlertRulePreviewBody, alertRuleListFields } from '../../shared/schemas/bankAlertRules.js';
import { listQueryOf } from '../lib/http/listQueryOf.js';
import { listReply } from '../lib/http/listReply.js';
import { type Request, Router } from '../lib/http/router.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import type { BankFigures } from './bankFigures.js';
import { previewAlertRule } from './preview.js';
import * as service from './service.js';

const id = (req: Request) => Number(req.params.id);
const AUDIT = { target: 'bank_alert_rule' };
/** Previews per user a minute: each may read up to 20 accounts' week of statements (docs/bank-monitor.md). */
const PREVIEW_LIMIT = {
  rule: { name: 'alert-rule-preview', limit: 30, windowSeconds: 60 },
  what: 'alert rule previews',
};

/** What the routes need of the bank, composed by functions/api.ts (the bank imports this feature). */
export interface AlertRuleDeps {
  bank: () => BankFigures;
}

/** Alert rules on bank figures (issue 45 item 2): the list protocol, CRUD (operator and above) and the preview. */
export const bankAlertRulesRouter = (deps: AlertRuleDeps) =>
  new Router()
    .get(
      '/bank/alert-rules',
      async (req) => listReply(req, await service.listAlertRules(listQueryOf(req, alertRuleListFields))),
      { list: alertRuleListFields },
    )
    .post('/bank/alert-rules', (req) => service.createAlertRule(deps.bank(), req.body, req.user), {
      body: AlertRuleBody,
      audit: AUDIT,
    })
    // Before /:id. Reads only, so nothing to audit; an operator's, as the editor it belongs to.
    .post(
      '/bank/alert-rules/preview',
      async (req) => previewAlertRule(deps.bank(), req.body, (await getSystemConfig()).time_zone),
      { body: AlertRulePreviewBody, audit: false, rateLimit: PREVIEW_LIMIT },
    )
    .get('/bank/alert-rules/:id', (req) => service.getAlertRule(id(req)))
    .put('/bank/alert-rules/:id', (req) => service.updateAlertRule(deps.bank(), id(req), req.body, req.user), {
      body: AlertRuleBody,
      audit: AUDIT,
    })
    .delete('/bank/alert-rules/:id', (req) => service.deleteAlertRule(id(req)), { audit: AUDIT });
