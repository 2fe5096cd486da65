import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ZodError } from 'zod';
import { type ApiFailure, ErrorCode, HEADERS, SUCCESS_CODE } from '../../../shared/envelope.js';
import { ListQueryError } from '../../../shared/listQuery.js';
import { BadRequestError, ForbiddenError, PatrolError, UnauthorizedError, ValidationError } from '../errors.js';
import { logger } from '../logger.js';
import { RawReply, type AuthUser, type Request, type Router } from './router.js';

export const API_PREFIX = '/api/v1';
export const MAX_BODY_BYTES = 1024 * 1024;

export type Authenticate = (token: string) => Promise<AuthUser>;

/** Zod issues -> `{field: message}`, first message per field, the spec's texts as written. */
export function zodExtra(error: ZodError): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'body';
    extra[key] ??= issue.message;
  }
  return extra;
}

class PayloadTooLargeError extends PatrolError {
  override name = 'PayloadTooLargeError';
  override status = 413;
  override code: number = ErrorCode.PayloadTooLarge;
}
class UnsupportedMediaTypeError extends PatrolError {
  override name = 'UnsupportedMediaTypeError';
  override status = 415;
  override code: number = ErrorCode.UnsupportedMediaType;
}
class RouteNotFoundError extends PatrolError {
  override name = 'RouteNotFoundError';
  override status = 404;
  override code: number = ErrorCode.RouteNotFound;
}
class MethodNotAllowedError extends PatrolError {
  override name = 'MethodNotAllowedError';
  override status = 405;
  override code: number = ErrorCode.MethodNotAllowed;
}

function lowerHeaders(headers: APIGatewayProxyEventV2['headers'] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

function parseBody(event: APIGatewayProxyEventV2, headers: Record<string, string>): unknown {
  if (!event.body) return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.length > MAX_BODY_BYTES) throw new PayloadTooLargeError('Request body is larger than 1 MB');
  if (raw.length === 0) return undefined;
  const type = headers['content-type'] ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new UnsupportedMediaTypeError('Request body must be JSON (Content-Type: application/json)');
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (cause) {
    const err = new BadRequestError('Malformed JSON body', { cause });
    err.code = ErrorCode.MalformedJson;
    throw err;
  }
}

function toFailure(
  error: unknown,
  requestId: string,
): { status: number; body: ApiFailure; headers: Record<string, string> } {
  if (error instanceof PatrolError) {
    if (error.status >= 500) logger.error('request failed', { error });
    return {
      status: error.status,
      headers: error.headers ?? {},
      body: {
        code: error.code,
        msg: error.message,
        ...(error.extra ? { extra: error.extra } : {}),
        request_id: requestId,
      },
    };
  }
  if (error instanceof ListQueryError) {
    return {
      status: 400,
      headers: {},
      body: {
        code: ErrorCode.BadRequest,
        msg: error.message,
        extra: { [error.field]: error.message },
        request_id: requestId,
      },
    };
  }
  if (error instanceof ZodError) {
    const extra = zodExtra(error);
    return {
      status: 400,
      headers: {},
      body: {
        code: ErrorCode.Validation,
        msg: Object.values(extra)[0] ?? 'Invalid input',
        extra,
        request_id: requestId,
      },
    };
  }
  // Unknown: the real error stays in the log under the request id; the caller sees no detail.
  logger.error('unhandled error', { error: error as Error });
  return {
    status: 500,
    headers: {},
    body: { code: ErrorCode.Internal, msg: 'Internal error, try later.', request_id: requestId },
  };
}

/**
 * The one Lambda handler behind API Gateway (HTTP API, payload v2). Handlers stay thin:
 * this parses the body, authenticates, checks the role, validates, and puts results and
 * errors on the wire in the envelope. The local server calls this very function.
 */
export function createApiHandler(router: Router, authenticate: Authenticate) {
  const core = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const headers = lowerHeaders(event.headers);
    const requestId = event.requestContext?.requestId || context?.awsRequestId || randomUUID();
    const traceId = headers[HEADERS.traceId] || randomUUID();
    const responseHeaders: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      [HEADERS.requestId]: requestId,
      [HEADERS.traceId]: traceId,
    };
    logger.appendKeys({ request_id: requestId, trace_id: traceId });
    const method = (event.requestContext?.http?.method ?? 'GET').toUpperCase();
    const rawPath = event.rawPath ?? '/';
    const path = rawPath.startsWith(API_PREFIX) ? rawPath.slice(API_PREFIX.length) || '/' : rawPath;

    try {
      const found = router.find(method, path);
      if (found === 'not-found') throw new RouteNotFoundError(`No such API: ${method} ${API_PREFIX}${path}`);
      if (found === 'bad-method') throw new MethodNotAllowedError(`${method} is not allowed on ${API_PREFIX}${path}`);
      const { route, params } = found;

      let user: AuthUser | undefined;
      if (route.access !== 'public') {
        const auth = headers.authorization ?? '';
        const token = /^Bearer\s+(.+)$/i.exec(auth)?.[1];
        if (!token) throw new UnauthorizedError('Please log in first');
        user = await authenticate(token);
        if (route.access === 'super' && user.role !== 'super') {
          throw new ForbiddenError('This area is for super users only');
        }
      }

      let body = parseBody(event, headers);
      if (route.body) {
        const parsed = route.body.safeParse(body ?? {});
        if (!parsed.success) throw new ValidationError(zodExtra(parsed.error));
        body = parsed.data;
      }

      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (v !== undefined) query[k] = v;

      const request: Request = {
        method,
        path,
        params,
        query,
        headers,
        body,
        user: user as AuthUser,
        requestId,
        traceId,
        sourceIp: event.requestContext?.http?.sourceIp ?? '',
        setHeader: (name, value) => {
          responseHeaders[name.toLowerCase()] = value;
        },
        event,
      };
      const data = await route.handler(request);
      if (data instanceof RawReply) {
        return {
          statusCode: data.status,
          headers: { ...responseHeaders, ...data.headers },
          body: data.body,
          isBase64Encoded: data.isBase64Encoded,
        };
      }
      return {
        statusCode: 200,
        headers: responseHeaders,
        body: JSON.stringify({ code: SUCCESS_CODE, msg: 'SUCCESS', data: data ?? null }),
      };
    } catch (error) {
      const failure = toFailure(error, requestId);
      if (failure.status < 500)
        logger.info('request refused', { status: failure.status, code: failure.body.code, path });
      return {
        statusCode: failure.status,
        headers: { ...responseHeaders, ...failure.headers },
        body: JSON.stringify(failure.body),
      };
    } finally {
      logger.removeKeys(['request_id', 'trace_id']);
    }
  };
  return middy(core);
}

/** A handler's request for a user that is not signed in, for routes that read it optionally. */
export function bearerToken(headers: Record<string, string>): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
}
