import { Router } from '../lib/http/router.js';

export const healthRouter = new Router().get('/health', () => ({ status: 'ok', time: Date.now() }), {
  access: 'public',
});
