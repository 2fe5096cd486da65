import { authenticate } from './auth/authenticate.js';
import { authRouter } from './auth/routes.js';
import { checksRouter } from './checks/routes.js';
import { healthRouter } from './health/routes.js';
import { notificationsRouter } from './notifications/routes.js';
import { sitesRouter } from './sites/routes.js';
import { systemConfigRouter } from './systemConfig/routes.js';
import { createApiHandler } from './lib/http/apiHandler.js';
import { Router } from './lib/http/router.js';
import { superUsersRouter } from './users/routes.js';

// The API Lambda: every feature router under /api/v1.
export const router = new Router().include(healthRouter);
router.include(authRouter);
router.include(superUsersRouter, systemConfigRouter);
router.include(sitesRouter, checksRouter, notificationsRouter);

export const handler = createApiHandler(router, authenticate);
