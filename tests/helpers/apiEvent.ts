// API Gateway (HTTP API, payload v2) events for tests that call the API handler or one of its
// middlewares directly, built by the same adapter the local server uses, so they have the shape
// a real request has.
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiContext, ApiMiddleware, ApiResult } from '../../functions/lib/http/middlewares/apiState.js';
import { envelope } from '../../functions/lib/http/middlewares/envelope.js';
import { loggingContext } from '../../functions/lib/http/middlewares/loggingContext.js';
import { toApiEvent } from '../../scripts/local/adapter.js';
import { lambdaContext } from '../../scripts/local/lambdaContext.js';

export interface ApiEventInput {
  method?: string;
  /** Path and query, e.g. /api/v1/sites?page=1 */
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON with its content type. */
  body?: unknown;
  /** Deliver the body base64-encoded, as API Gateway does with binary bodies. */
  base64?: boolean;
}

export function apiEvent(input: ApiEventInput): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = { host: 'localhost', ...input.headers };
  let body = Buffer.alloc(0);
  if (typeof input.body === 'string') body = Buffer.from(input.body);
  else if (input.body !== undefined) {
    body = Buffer.from(JSON.stringify(input.body));
    headers['content-type'] ??= 'application/json';
  }
  const event = toApiEvent({
    method: input.method ?? 'GET',
    url: input.path,
    headers,
    body,
    sourceIp: '127.0.0.1',
    protocol: 'HTTP/1.1',
  });
  if (input.base64 && body.length > 0) {
    event.body = body.toString('base64');
    event.isBase64Encoded = true;
  }
  return event;
}

export const apiContext = () => lambdaContext({ name: 'api', memoryMb: 1024, timeoutSeconds: 29 }, 'us-east-1');

/** The answer's status, lower-cased headers and parsed JSON body. */
export function readReply(result: APIGatewayProxyStructuredResultV2 | string | undefined) {
  if (!result || typeof result === 'string') throw new Error(`not a structured result: ${result}`);
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
  );
  // biome-ignore lint/suspicious/noExplicitAny: tests read envelope fields without narrowing at every step.
  const body: any = result.body && headers['content-type']?.includes('json') ? JSON.parse(result.body) : result.body;
  return { status: result.statusCode ?? 200, headers, body };
}

/**
 * A middy chain with the steps every API middleware relies on (lower-case headers, the API
 * state, the envelope) plus the ones under test, calling `handler` at the end. For the unit
 * tests of single middlewares.
 */
export function apiChain(
  steps: ApiMiddleware[],
  handler: (event: APIGatewayProxyEventV2, context: ApiContext) => unknown = () => ({ ok: true }),
) {
  const chain = middy<APIGatewayProxyEventV2, ApiResult, Error, ApiContext>()
    .use(httpHeaderNormalizer())
    .use(loggingContext())
    .use(envelope());
  for (const step of steps) chain.use(step);
  const run = chain.handler(async (event, context) => (await handler(event, context)) as ApiResult);
  return async (input: ApiEventInput) => readReply(await run(apiEvent(input), apiContext() as ApiContext));
}
