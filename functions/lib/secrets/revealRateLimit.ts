import type { RateLimitRule } from '../rateLimit.js';

/**
 * Reveals of secrets per user per minute, one budget for every secret (site and bank passwords,
 * API keys, signing secrets): enough to look up the ones an operator is working with, too few to
 * walk a whole list (that is what lists without secrets are for). Each reveal route declares it
 * (RouteOptions.rateLimit); the pipeline counts it.
 */
export const REVEAL_RATE_LIMIT: RateLimitRule = {
  name: 'reveal-secret',
  limit: Number(process.env.REVEAL_RATE_LIMIT ?? 10),
  windowSeconds: 60,
};
