import { TooManyRequestsError } from '../../errors.js';
import { hitRateLimit } from '../../rateLimit.js';
import { type ApiMiddleware, apiState, matchedRoute } from './apiState.js';

/**
 * A route's per-user budget (RouteOptions.rateLimit: secret reveals, Telegram test messages),
 * counted once the user is known and before the body is read, so a call past it does no work. It
 * runs after the audit step has opened, so a refusal is audited like the call would have been: a
 * user hammering a reveal shows in the trail.
 */
export function rateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const limit = matchedRoute(request).rateLimit;
      const user = apiState(request).user;
      if (!limit || !user) return;
      const outcome = await hitRateLimit(limit.rule, `user#${user.id}`);
      if (!outcome.allowed)
        throw new TooManyRequestsError(
          `Too many ${limit.what}; try again in ${outcome.retryAfterSeconds} s`,
          outcome.retryAfterSeconds,
        );
    },
  };
}
