import { apiTokensRouter } from './apiTokens/routes.js';
import { authenticateApiToken, isApiToken } from './apiTokens/service.js';
import { auditRouter } from './audit/routes.js';
import { auditRecorder } from './audit/service.js';
import { authenticate } from './auth/authenticate.js';
import { edgeCheck } from './auth/originSecret.js';
import { factorRouter } from './auth/factorRoutes.js';
import { authRouter } from './auth/routes.js';
import { passkeyRouter } from './auth/passkeyRoutes.js';
import { autoCheckRouter } from './autoCheck/routes.js';
import { BankAccountStatus } from '../shared/enums.js';
import { bankAlertRulesRouter } from './bankAlertRules/routes.js';
import { bankRouter } from './bank/routes.js';
import { bankStore } from './bank/store.js';
import { pollAccountNow as bankPollNow, updateAccount as updateBankAccount } from './bank/service.js';
import { bankWebhookRouter } from './bankWebhook/routes.js';
import { inboundBankWebhookRouter } from './bankWebhook/inbound/routes.js';
import { checksRouter } from './checks/routes.js';
import { startCheck } from './checks/start.js';
import { bankDashboardRouter } from './dashboard/bankRoutes.js';
import { checkDashboardRouter } from './dashboard/checkRoutes.js';
import { healthRouter } from './health/routes.js';
import { incidentsRouter } from './incidents/routes.js';
import { maintenanceRouter } from './maintenance/routes.js';
import { metricsRouter } from './metrics/routes.js';
import { reportsRouter } from './reports/routes.js';
import { API_PREFIX, createApiHandler } from './lib/http/apiHandler.js';
import { Router } from './lib/http/router.js';
import { openApiRouter } from './openapi/routes.js';
import { patrolSchemaRouter } from './patrolSchema/routes.js';
import { notificationsRouter } from './notifications/routes.js';
import { telegramRouter } from './notifications/telegram/routes.js';
import { sitesRouter } from './sites/routes.js';
import { ssoRouter } from './sso/routes.js';
import { telegramLinkRouter, telegramWebhookRouter } from './telegramBot/routes.js';
import { endTelegramLink } from './telegramBot/service.js';
import { systemConfigRouter } from './systemConfig/routes.js';
import { superUsersRouter } from './users/routes.js';
import { onSessionsEnded } from './users/sessionsEnded.js';

// The API Lambda: every feature router under /api/v1. `router` holds the routes as the features
// declare them (paths below /api/v1), which is how the route sweeps list them.
/** What incidents need of the check engine (a Re-run starts a check): composed here, one way. */
const INCIDENT_DEPS = {
  startCheck,
  // A bank incident's Poll now and Disable account (issue 45): the bank reports to incidents, so it is composed here.
  pollBankAccount: bankPollNow,
  disableBankAccount: async (id: number) => {
    await updateBankAccount(id, { status: BankAccountStatus.values.Disable as 99 });
  },
};

/** A user's Telegram link ends with the user's sessions (issue 43), composed here so users does not import the bot. */
onSessionsEnded(endTelegramLink);

export const router = new Router().include(
  '',
  healthRouter,
  authRouter,
  passkeyRouter,
  factorRouter,
  superUsersRouter,
  apiTokensRouter,
  systemConfigRouter,
  ssoRouter,
  auditRouter,
  sitesRouter,
  checksRouter,
  checkDashboardRouter,
  notificationsRouter,
  telegramRouter,
  autoCheckRouter,
  maintenanceRouter,
  incidentsRouter(INCIDENT_DEPS),
  telegramLinkRouter,
  bankRouter,
  // The alert rules read the bank's figures through its store, passed here: the bank's poll imports the rules.
  bankAlertRulesRouter({ bank: bankStore }),
  bankWebhookRouter,
  bankDashboardRouter,
  metricsRouter,
  reportsRouter,
  patrolSchemaRouter,
  openApiRouter(() => ({ api: router, root: rootRouter })),
);

/** Routes outside /api/v1: the inbound bank webhook and Telegram's (their own API Gateway routes in the cloud). */
export const rootRouter = new Router().include('', inboundBankWebhookRouter, telegramWebhookRouter(INCIDENT_DEPS));

export const handler = createApiHandler(
  new Router().include(API_PREFIX, router).include('', rootRouter),
  // A `pat_` bearer is an API token (issue 46), any other a session's JWT: one pipeline for both.
  (bearer) => (isApiToken(bearer) ? authenticateApiToken(bearer) : authenticate(bearer)),
  auditRecorder,
  edgeCheck(),
);
