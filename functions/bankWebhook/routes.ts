import { listQueryOf } from '../lib/http/listQueryOf.js';
import { bankNotificationHistoryListFields, bankNotificationListFields } from '../../shared/schemas/bank.js';
import { ReplayBody, type WebhookState } from '../../shared/schemas/bankWebhook.js';
import { withMaskedUrls } from '../../shared/maskUrl.js';
import { ForbiddenError } from '../lib/errors.js';
import { listReply } from '../lib/http/listReply.js';
import { Router } from '../lib/http/router.js';
import { BankAccountNotFoundError } from '../bank/errors.js';
import { REVEAL_LIMIT, revealAudit } from '../bank/revealSecret.js';
import { bankStore } from '../bank/store.js';
import { toBankNotificationRow } from './rows.js';
import { replayNotifications } from './replay.js';
import { revealWebhookSecret, rotateWebhookSecret } from './webhookSecret.js';

async function knownAccount(accountId: number): Promise<void> {
  if (!(await bankStore().getAccount(accountId))) throw new BankAccountNotFoundError(accountId);
}

/** The webhook's delivery health, as the API shows it. */
async function webhookState(accountId: number): Promise<WebhookState> {
  const state = await bankStore().webhookState(accountId);
  return { account_id: accountId, paused: state.paused_at !== null, ...state };
}

export const bankWebhookRouter = new Router()
  .get(
    '/notifications-bank',
    async (req) => {
      const outcome = await bankStore().listNotifications(listQueryOf(req, bankNotificationListFields));
      return listReply(req, { ...outcome, result: outcome.result.map(toBankNotificationRow) });
    },
    { list: bankNotificationListFields },
  )
  .get(
    '/notifications-bank/history',
    async (req) => {
      const query = listQueryOf(req, bankNotificationHistoryListFields);
      const viewer = req.user.role === 'viewer';
      if (viewer && ('callback_url' in query.filters || query.keywordField.includes('callback_url')))
        // A search is an oracle: a viewer could read a masked token by asking for it letter by letter.
        throw new ForbiddenError('Your role cannot search or filter by callback_url');
      const page = await bankStore().listHistory(query);
      return listReply(req, {
        ...page,
        result: viewer ? page.result.map((row) => withMaskedUrls(row, ['callback_url'])) : page.result,
      });
    },
    { list: bankNotificationHistoryListFields },
  )
  .post('/notifications-bank/replay', (req) => replayNotifications(bankStore(), req.body), {
    body: ReplayBody,
    audit: { action: 'bank_notification.replay', target: 'bank_notification' },
  })
  .get('/bank/bank-account/:id/webhook-secret', (req) => revealWebhookSecret(bankStore(), req.params.id), {
    audit: revealAudit('webhook_secret'),
    rateLimit: REVEAL_LIMIT,
  })
  .post('/bank/bank-account/:id/webhook-secret', (req) => rotateWebhookSecret(bankStore(), req.params.id), {
    audit: revealAudit('webhook_secret', 'rotate'),
    rateLimit: REVEAL_LIMIT,
  })
  .get('/bank/bank-account/:id/webhook-state', async (req): Promise<WebhookState> => {
    await knownAccount(req.params.id);
    return webhookState(req.params.id);
  })
  .post(
    '/bank/bank-account/:id/webhook-resume',
    async (req): Promise<WebhookState> => {
      await knownAccount(req.params.id);
      await bankStore().setPaused(req.params.id, null);
      return webhookState(req.params.id);
    },
    { audit: { action: 'bank_account.webhook.resume', target: 'bank_account' } },
  );
