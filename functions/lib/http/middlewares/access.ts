import { HEADERS } from '../../../../shared/envelope.js';
import { ErrorCode } from '../../../../shared/errors.js';
import { READ_ONLY_MESSAGE, roleAtLeast } from '../../../../shared/roles.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import { hitRateLimit, rateLimitReached } from '../../rateLimit.js';
import { type ApiKeyAccess, type AuthUser, lowestRole } from '../router.js';
import { tokenAllows } from '../tokenScope.js';
import { type ApiMiddleware, type ApiState, apiState, matchedRoute } from './apiState.js';

export type Authenticate = (token: string) => Promise<AuthUser>;

/** A viewer called a route that changes something or reveals a secret. */
export class ReadOnlyRoleError extends ForbiddenError {
  override name = 'ReadOnlyRoleError';
  override code: number = ErrorCode.ReadOnlyRole;
  constructor() {
    super(READ_ONLY_MESSAGE);
  }
}

/** An API token called a route its scope does not reach (tokenScope.ts). */
export class TokenScopeRefusedError extends ForbiddenError {
  override name = 'TokenScopeRefusedError';
  override code: number = ErrorCode.TokenScopeRefused;
  constructor() {
    super("This API token's scope does not allow this call");
  }
}

/** A session called a route that only a token of its scope may call (GET /metrics). */
export class TokenRequiredError extends ForbiddenError {
  override name = 'TokenRequiredError';
  override code: number = ErrorCode.TokenRequired;
  constructor() {
    super('This route takes an API token of its scope, not a session');
  }
}

/** The bearer token of a request, for routes that read the user optionally. */
export function bearerToken(headers: Record<string, string | undefined>): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
}

const tooManyFailures = (retryAfterSeconds: number) =>
  new TooManyRequestsError(
    `Too many refused API keys from this address, try again in ${retryAfterSeconds} s`,
    retryAfterSeconds,
  );

async function checkApiKey(
  access: ApiKeyAccess,
  key: string | undefined,
  state: ApiState,
  client: { sourceIp: string; headers: Record<string, string> },
): Promise<void> {
  if (!key) throw new UnauthorizedError(`This API needs an API key in the ${access.header ?? HEADERS.apiKey} header`);
  const failures = access.failedAttempts;
  const address = failures?.clientOf(client);
  // Whether the address is refusing already is read beside the key's check, not after it.
  const [blocked, caller] = await Promise.all([
    failures && address !== undefined ? rateLimitReached(failures.rule, address) : undefined,
    access.verify(key),
  ]);
  if (blocked?.reached) throw tooManyFailures(blocked.retryAfterSeconds);
  if (!caller) {
    // Every refused key answers alike: unknown, or held only by an account that may not push.
    if (failures && address !== undefined) {
      const counted = await hitRateLimit(failures.rule, address);
      if (!counted.allowed) throw tooManyFailures(counted.retryAfterSeconds);
    }
    throw new UnauthorizedError(access.header ? `Invalid ${access.header}` : 'Invalid API key');
  }
  // Counted per caller, after the key is known good: unknown keys cannot use up a real caller's budget.
  const outcome = access.rateLimit ? await hitRateLimit(access.rateLimit, caller.id) : undefined;
  if (outcome && !outcome.allowed) {
    throw new TooManyRequestsError(
      `Too many calls with this API key, try again in ${outcome.retryAfterSeconds} s`,
      outcome.retryAfterSeconds,
    );
  }
  state.caller = caller;
}

/**
 * Who may call the route: public (anyone), user (a valid bearer token of a role the route admits:
 * `lowestRole`, so a viewer reads and an operator writes), super (a token of a super user, checked
 * here on the server whatever the web shows), or api-key (a machine caller whose key the route's
 * verifier accepts, within the route's rate limit). An API token (`pat_…`, whose `authenticate` sets
 * `user.token`) is held to its scope instead of a role; a route with `tokenScope` takes only those.
 * Runs before the body is read, so an anonymous caller learns nothing about body rules.
 */
export function access(authenticate: Authenticate): ApiMiddleware {
  return {
    before: async (request) => {
      const state = apiState(request);
      const rule = matchedRoute(request).access;
      if (rule === 'public') return;
      const headers = request.event.headers ?? {};
      if (typeof rule === 'object')
        return checkApiKey(rule, headers[rule.header ?? HEADERS.apiKey], state, {
          sourceIp: request.event.requestContext?.http?.sourceIp ?? '',
          headers: headers as Record<string, string>,
        });
      const token = bearerToken(headers);
      if (!token) throw new UnauthorizedError('Please log in first');
      const user = await authenticate(token);
      const route = matchedRoute(request);
      if (user.token) {
        if (!tokenAllows(user.token.scope, route)) throw new TokenScopeRefusedError();
        state.user = user;
        return;
      }
      if (route.tokenScope) throw new TokenRequiredError();
      const lowest = lowestRole(route);
      if (!roleAtLeast(user.role, lowest)) {
        if (lowest === 'super') throw new ForbiddenError('This area is for super users only');
        throw new ReadOnlyRoleError();
      }
      state.user = user;
    },
  };
}
