import { listQueryOf } from '../lib/http/listQueryOf.js';
import { bankNotificationHistoryListFields, bankNotificationListFields } from '../../shared/schemas/bank.js';
import { ReplayBody, type WebhookState } from '../../shared/schemas/bankWebhook.js';
import { listReply } from '../lib/http/listReply.js';
import { type Request, Router } from '../lib/http/router.js';
import { BankAccountNotFoundError } from '../bank/errors.js';
import { toBankNotificationRow } from './rows.js';
import { replayNotifications } from './replay.js';
import { deliveryStore } from './store.js';
import { revealWebhookSecret, rotateWebhookSecret, webhookSecretAudit } from './webhookSecret.js';

const id = (req: Request) => Number(req.params.id);

async function knownAccount(accountId: number): Promise<void> {
  if (!(await deliveryStore().getAccount(accountId))) throw new BankAccountNotFoundError(accountId);
}

export const bankWebhookRouter = new Router()
  .get(
    '/notifications-bank',
    async (req) => {
      const outcome = await deliveryStore().listNotifications(listQueryOf(req, bankNotificationListFields));
      return listReply(req, { ...outcome, result: outcome.result.map(toBankNotificationRow) });
    },
    { list: bankNotificationListFields },
  )
  .get(
    '/notifications-bank/history',
    async (req) =>
      listReply(req, await deliveryStore().listHistory(listQueryOf(req, bankNotificationHistoryListFields))),
    { list: bankNotificationHistoryListFields },
  )
  .post('/notifications-bank/replay', (req) => replayNotifications(req.body), {
    body: ReplayBody,
    audit: { action: 'bank_notification.replay', target: 'bank_notification' },
  })
  .get('/bank/bank-account/:id/webhook-secret', (req) => revealWebhookSecret(req, id(req)), {
    audit: webhookSecretAudit('reveal'),
  })
  .post('/bank/bank-account/:id/webhook-secret', (req) => rotateWebhookSecret(req, id(req)), {
    audit: webhookSecretAudit('rotate'),
  })
  .get('/bank/bank-account/:id/webhook-state', async (req): Promise<WebhookState> => {
    await knownAccount(id(req));
    return deliveryStore().webhookState(id(req));
  })
  .post(
    '/bank/bank-account/:id/webhook-resume',
    async (req): Promise<WebhookState> => {
      await knownAccount(id(req));
      await deliveryStore().setPaused(id(req), null);
      return deliveryStore().webhookState(id(req));
    },
    { audit: { action: 'bank_account.webhook.resume', target: 'bank_account' } },
  );
