import { listQueryOf } from '../lib/http/listQueryOf.js';
import { autoLogListFields, RuleBody, ruleListFields, UpdateRuleBody } from '../../shared/schemas/autoCheck.js';
import { listReply } from '../lib/http/listReply.js';
import { Router } from '../lib/http/router.js';
import * as service from './service.js';

const RULE_AUDIT = { target: 'auto_rule' };

export const autoCheckRouter = new Router()
  .get('/auto-check/rules', async (req) => listReply(req, await service.listRules(listQueryOf(req, ruleListFields))), {
    list: ruleListFields,
  })
  .post('/auto-check/rules', (req) => service.createRule(req.body, req.user.id), { body: RuleBody })
  // Before /:id: 'logs' is no rule id.
  .get(
    '/auto-check/rules/logs',
    async (req) => listReply(req, await service.listLogs(listQueryOf(req, autoLogListFields))),
    { list: autoLogListFields },
  )
  .get('/auto-check/calendar', () => service.ruleCalendar())
  .get('/auto-check/rules/:id', (req) => service.getRule(req.params.id))
  .put('/auto-check/rules/:id', (req) => service.updateRule(req.params.id, req.body), {
    body: UpdateRuleBody,
    audit: RULE_AUDIT,
  })
  .post('/auto-check/rules/:id/check', (req) => service.checkRuleNow(req.params.id, req.user.id), { audit: RULE_AUDIT })
  .get('/auto-check/rules/:id/items', async (req) => listReply(req, await service.ruleItems(req.params.id)))
  .get(
    '/auto-check/rules/:id/logs',
    async (req) => listReply(req, await service.listLogs(listQueryOf(req, autoLogListFields), req.params.id)),
    { list: autoLogListFields },
  );
