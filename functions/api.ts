import { authenticate } from './auth/authenticate.js';
import { healthRouter } from './health/routes.js';
import { createApiHandler } from './lib/http/apiHandler.js';
import { Router } from './lib/http/router.js';

// The API Lambda: every feature router under /api/v1.
export const router = new Router().include(healthRouter);

export const handler = createApiHandler(router, authenticate);
