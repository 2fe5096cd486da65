import middy, { type MiddyfiedHandler } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { type Authenticate, access } from './middlewares/access.js';
import { API_PREFIX, type ApiContext, type ApiResult, apiState, matchedRoute } from './middlewares/apiState.js';
import { type AuditRecorder, audit } from './middlewares/audit.js';
import { bodyLimits } from './middlewares/bodyLimits.js';
import { envelope } from './middlewares/envelope.js';
import { jsonBody } from './middlewares/jsonBody.js';
import { loggingContext } from './middlewares/loggingContext.js';
import { type EdgeCheck, originGate } from './middlewares/originGate.js';
import { rateLimit } from './middlewares/rateLimit.js';
import { routing } from './middlewares/routing.js';
import { validation } from './middlewares/validation.js';
import type { AuthUser, Request, Router } from './router.js';

export { API_PREFIX } from './middlewares/apiState.js';
export type { AuditInput, AuditRecorder } from './middlewares/audit.js';
export { MAX_BODY_BYTES } from './middlewares/bodyLimits.js';
export { bearerToken, type Authenticate } from './middlewares/access.js';
export { zodExtra } from './middlewares/envelope.js';
export type { EdgeCheck } from './middlewares/originGate.js';

/** The request a route handler sees, from the event and what the middlewares found out. */
function routeRequest(event: APIGatewayProxyEventV2, context: ApiContext): Request {
  const state = apiState({ context });
  // fromEntries defines own properties, so `?__proto__=x` stays a parameter (and is refused as a
  // filter) instead of silently setting the object's prototype.
  const query = Object.fromEntries(
    Object.entries(event.queryStringParameters ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const path = state.path.startsWith(API_PREFIX) ? state.path.slice(API_PREFIX.length) || '/' : state.path;
  return {
    method: (event.requestContext?.http?.method ?? 'GET').toUpperCase(),
    path,
    params: state.params,
    query,
    queryData: state.queryData,
    headers: (event.headers ?? {}) as Record<string, string>,
    body: state.body,
    user: state.user as AuthUser,
    ...(state.caller ? { caller: state.caller } : {}),
    requestId: state.requestId,
    traceId: state.traceId,
    sourceIp: event.requestContext?.http?.sourceIp ?? '',
    setHeader: (name, value) => {
      state.responseHeaders[name.toLowerCase()] = value;
    },
    event,
  };
}

/**
 * The one Lambda handler behind API Gateway (HTTP API, payload v2), as a middy chain of small
 * steps, each its own module: lower-case headers, open the logging context, put results and
 * errors in the envelope, refuse what did not come through CloudFront (cloud only), find the route (and parse
 * its ids), check access, audit the call once it has ended (its after/onError run before the envelope's), count
 * the route's per-user budget, check the body's size and type, parse it, validate it. Each step only throws; the
 * envelope turns that into the answer. The order
 * is the wire's: 404/405 before 401/403, which come before anything about the body.
 * Route handlers stay thin. The local server calls this very function.
 */
export function createApiHandler(
  router: Router,
  authenticate: Authenticate,
  recordAudit?: AuditRecorder,
  edgeCheck?: EdgeCheck,
): MiddyfiedHandler<APIGatewayProxyEventV2, ApiResult, Error, Context> {
  const handler = middy<APIGatewayProxyEventV2, ApiResult, Error, ApiContext>()
    .use(httpHeaderNormalizer())
    .use(loggingContext())
    .use(envelope())
    .use(originGate(edgeCheck))
    .use(routing(router))
    .use(access(authenticate))
    .use(audit(recordAudit))
    .use(rateLimit())
    .use(bodyLimits())
    .use(jsonBody())
    .use(validation())
    .handler(async (event, context) => {
      const route = matchedRoute({ context });
      // The envelope middleware wraps whatever the route returns (a RawReply goes out as is).
      return (await route.handler(routeRequest(event, context))) as ApiResult;
    });
  // Callers pass a plain Lambda context; loggingContext() adds the API state to it first thing.
  return handler as unknown as MiddyfiedHandler<APIGatewayProxyEventV2, ApiResult, Error, Context>;
}
