import middy, { type MiddyfiedHandler } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { HEADERS } from '../../../shared/envelope.js';
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
import { type AuthUser, RawReply, type Request, type Route, type Router } from './router.js';
import { answerKey, keptOrComputed } from './keptAnswers.js';
import { processAnswers } from './sharedAnswers.js';

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
    setActor: (user) => {
      state.actor = { id: user.id, username: user.username };
    },
    event,
  };
}

/**
 * A route's answer shared by every caller for `sharedFor` ms (sharedAnswers.ts), and kept ready
 * ahead of them when the route says so (keptAnswers.ts): computed and written once, served again
 * as written. A caller who did not compute it read nothing (x-consumed-rcu 0) or only the stored
 * answer; `age` says how old (whole seconds, as HTTP caches say it) the answer it got is.
 */
async function sharedReply(route: Route, req: Request): Promise<RawReply> {
  const key = answerKey(req.path, req.queryData ?? req.query);
  const answer = await processAnswers.answer(key, route.sharedFor ?? 0, () => keptOrComputed(route, req, key));
  const headers = { ...answer.headers };
  if (!answer.computed) headers[HEADERS.consumedCapacity] = '0';
  headers.age = String(Math.floor(answer.ageMs / 1000));
  return new RawReply(200, answer.body, headers);
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
      const req = routeRequest(event, context);
      // The envelope middleware wraps whatever the route returns (a RawReply goes out as is).
      if (route.sharedFor && req.method === 'GET') return (await sharedReply(route, req)) as ApiResult;
      return (await route.handler(req)) as ApiResult;
    });
  // Callers pass a plain Lambda context; loggingContext() adds the API state to it first thing.
  return handler as unknown as MiddyfiedHandler<APIGatewayProxyEventV2, ApiResult, Error, Context>;
}
