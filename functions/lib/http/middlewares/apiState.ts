import type { MiddlewareObj, Request as MiddyRequest } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ApiKeyCaller, AuthUser, Route } from '../router.js';

/** Where the API is mounted; route patterns carry it, paths a handler sees do not. */
export const API_PREFIX = '/api/v1';

/**
 * What the API middlewares learn about one call, in the order they run. It rides on the Lambda
 * context (as middy's own middlewares pass values on) because the base handler sees only the
 * event and the context.
 */
export interface ApiState {
  requestId: string;
  traceId: string;
  /** Headers every answer carries, success or failure; handlers add theirs through `setHeader`. */
  responseHeaders: Record<string, string>;
  /** The path that was called, for log lines. */
  path: string;
  route?: Route;
  params: Record<string, string | number>;
  user?: AuthUser;
  /** Who a public call turned out to be, as its handler named it (`Request.setActor`). */
  actor?: { id: number; username: string };
  caller?: ApiKeyCaller;
  /** The parsed, then validated, JSON body; undefined when none was sent. */
  body?: unknown;
  /** The query string as the route's `query` schema made it. */
  queryData?: unknown;
}

export type ApiContext = Context & { api: ApiState };
export type ApiResult = APIGatewayProxyStructuredResultV2;
export type ApiRequest = MiddyRequest<APIGatewayProxyEventV2, ApiResult, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEventV2, ApiResult, Error, ApiContext>;

/** The state, once the logging-context middleware has opened it. */
export function apiState(request: { context: ApiContext }): ApiState {
  const state = request.context?.api;
  if (!state) throw new Error('API state missing: loggingContext() must run first');
  return state;
}

/** The route the routing middleware found; every later step needs it. */
export function matchedRoute(request: { context: ApiContext }): Route {
  const route = apiState(request).route;
  if (!route) throw new Error('No route: routing() must run first');
  return route;
}
