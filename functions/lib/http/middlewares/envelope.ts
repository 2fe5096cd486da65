import { ZodError } from 'zod';
import { type ApiFailure, SUCCESS_CODE } from '../../../../shared/envelope.js';
import { ErrorCode } from '../../../../shared/errors.js';
import { ListQueryError } from '../../../../shared/listQuery.js';
import { PatrolError } from '../../errors.js';
import { logger } from '../../logger.js';
import { RawReply } from '../router.js';
import { type ApiMiddleware, type ApiResult, apiState } from './apiState.js';

/** Zod issues -> `{field: message}`, first message per field, the spec's texts as written. */
export function zodExtra(error: ZodError): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'body';
    extra[key] ??= issue.message;
  }
  return extra;
}

/** The status an error ends a call with (what toFailure answers), without logging it. */
export function failureStatus(error: unknown): number {
  if (error instanceof PatrolError) return error.status;
  return error instanceof ListQueryError || error instanceof ZodError ? 400 : 500;
}

type Failure = { status: number; body: Omit<ApiFailure, 'request_id'>; headers: Record<string, string> };

/** Any error -> what the caller may see. Only PatrolErrors and input errors speak; the rest is a bare 500. */
export function toFailure(error: unknown): Failure {
  if (error instanceof PatrolError) {
    if (error.status >= 500) logger.error('request failed', { error });
    return {
      status: error.status,
      headers: error.headers ?? {},
      body: { code: error.code, msg: error.message, ...(error.extra ? { extra: error.extra } : {}) },
    };
  }
  if (error instanceof ListQueryError) {
    return {
      status: 400,
      headers: {},
      body: { code: ErrorCode.BadRequest, msg: error.message, extra: { [error.field]: error.message } },
    };
  }
  if (error instanceof ZodError) {
    const extra = zodExtra(error);
    return {
      status: 400,
      headers: {},
      body: { code: ErrorCode.Validation, msg: Object.values(extra)[0] ?? 'Invalid input', extra },
    };
  }
  // Unknown: the real error stays in the log under the request id; the caller sees no detail.
  logger.error('unhandled error', { error: error as Error });
  return { status: 500, headers: {}, body: { code: ErrorCode.Internal, msg: 'Internal error, try later.' } };
}

/** The body of a success: `{code: 1000, msg: 'SUCCESS', data}`. */
export const successBody = (data: unknown): string =>
  JSON.stringify({ code: SUCCESS_CODE, msg: 'SUCCESS', data: data ?? null });

/**
 * The wire envelope (spec section 7), both ways: what the handler returns becomes
 * `{code: 1000, msg, data}` (a RawReply goes out as it is), and what any step throws becomes
 * `{code, msg, extra?, request_id}` with its status, so the steps before it only throw.
 */
export function envelope(): ApiMiddleware {
  return {
    after: (request) => {
      const state = apiState(request);
      const data: unknown = request.response;
      if (data instanceof RawReply) {
        request.response = {
          statusCode: data.status,
          headers: { ...state.responseHeaders, ...data.headers },
          body: data.body,
          isBase64Encoded: data.isBase64Encoded,
        };
        return;
      }
      request.response = {
        statusCode: 200,
        headers: state.responseHeaders,
        body: successBody(data),
      } satisfies ApiResult;
    },
    onError: (request) => {
      const state = apiState(request);
      const failure = toFailure(request.error);
      if (failure.status < 500) {
        logger.info('request refused', { status: failure.status, code: failure.body.code, path: state.path });
      }
      const body: ApiFailure = { ...failure.body, request_id: state.requestId };
      request.response = {
        statusCode: failure.status,
        headers: { ...state.responseHeaders, ...failure.headers },
        body: JSON.stringify(body),
      };
    },
  };
}
