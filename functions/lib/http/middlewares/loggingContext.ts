import { randomUUID } from 'node:crypto';
import { HEADERS } from '../../../../shared/envelope.js';
import { logger } from '../../logger.js';
import type { ApiContext, ApiMiddleware } from './apiState.js';

/**
 * Opens the call: a request id (API Gateway's, else Lambda's, else new) and a trace id (the
 * caller's x-trace-id, else new), both sent back on every answer and put on every log line of
 * the call, then taken off so the next call on a warm Lambda does not inherit them.
 * Expects lower-cased headers (http-header-normalizer runs first).
 */
export function loggingContext(): ApiMiddleware {
  const close = () => {
    logger.removeKeys(['request_id', 'trace_id']);
  };
  return {
    before: (request) => {
      const { event } = request;
      const requestId = event.requestContext?.requestId || request.context?.awsRequestId || randomUUID();
      const traceId = event.headers?.[HEADERS.traceId] || randomUUID();
      request.context ??= {} as ApiContext;
      request.context.api = {
        requestId,
        traceId,
        path: event.rawPath ?? '/',
        params: {},
        responseHeaders: {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          [HEADERS.requestId]: requestId,
          [HEADERS.traceId]: traceId,
        },
      };
      logger.appendKeys({ request_id: requestId, trace_id: traceId });
    },
    after: close,
    onError: close,
  };
}
