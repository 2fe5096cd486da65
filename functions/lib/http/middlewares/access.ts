import { HEADERS } from '../../../../shared/envelope.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import { hitRateLimit } from '../../rateLimit.js';
import type { ApiKeyAccess, AuthUser } from '../router.js';
import { type ApiMiddleware, type ApiState, apiState, matchedRoute } from './apiState.js';

export type Authenticate = (token: string) => Promise<AuthUser>;

/** The bearer token of a request, for routes that read the user optionally. */
export function bearerToken(headers: Record<string, string | undefined>): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
}

async function checkApiKey(access: ApiKeyAccess, key: string | undefined, state: ApiState): Promise<void> {
  if (!key) throw new UnauthorizedError(`This API needs an API key in the ${HEADERS.apiKey} header`);
  const caller = await access.verify(key);
  if (!caller) throw new UnauthorizedError('Invalid API key');
  // Counted per caller, after the key is known good: unknown keys cannot use up a real caller's budget.
  const outcome = await hitRateLimit(access.rateLimit, caller.id);
  if (!outcome.allowed) {
    throw new TooManyRequestsError(
      `Too many calls with this API key, try again in ${outcome.retryAfterSeconds} s`,
      outcome.retryAfterSeconds,
    );
  }
  state.caller = caller;
}

/**
 * Who may call the route: public (anyone), user (a valid bearer token), super (a token of a
 * super user, checked here on the server whatever the web shows), or api-key (a machine caller
 * whose key the route's verifier accepts, within the route's rate limit).
 * Runs before the body is read, so an anonymous caller learns nothing about body rules.
 */
export function access(authenticate: Authenticate): ApiMiddleware {
  return {
    before: async (request) => {
      const state = apiState(request);
      const rule = matchedRoute(request).access;
      if (rule === 'public') return;
      const headers = request.event.headers ?? {};
      if (typeof rule === 'object') return checkApiKey(rule, headers[HEADERS.apiKey], state);
      const token = bearerToken(headers);
      if (!token) throw new UnauthorizedError('Please log in first');
      const user = await authenticate(token);
      if (rule === 'super' && user.role !== 'super') throw new ForbiddenError('This area is for super users only');
      state.user = user;
    },
  };
}
