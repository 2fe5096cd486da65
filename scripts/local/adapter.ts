import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { ErrorCode, HEADERS } from '../../shared/envelope.js';

/** API Gateway refuses larger requests before a Lambda sees them (the Lambda payload limit). */
export const MAX_EVENT_BODY_BYTES = 6 * 1024 * 1024;

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** An HTTP request as the adapter needs it: what a socket gave, without the socket. */
export interface RawHttpRequest {
  method: string;
  /** Path and query as sent, e.g. `/api/v1/sites?page=1` */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
  /** e.g. HTTP/1.1 */
  protocol: string;
  requestId?: string;
  now?: number;
}

const TEXT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml)\b|application\/(x-www-form-urlencoded|javascript)\b)/i;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `requestContext.time`, e.g. `12/Mar/2020:19:03:58 +0000`. */
function gatewayTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

function isUtf8Text(contentType: string, body: Buffer): boolean {
  if (!TEXT_TYPE.test(contentType)) return false;
  // A "text" body that is not valid UTF-8 would be mangled by a utf8 round trip.
  return Buffer.from(body.toString('utf8'), 'utf8').equals(body);
}

/** The HTTP API (payload format 2.0) event API Gateway would give the Lambda for this request. */
export function toApiEvent(req: RawHttpRequest): APIGatewayProxyEventV2 {
  const now = req.now ?? Date.now();
  const requestId = req.requestId ?? randomUUID();
  const q = req.url.indexOf('?');
  const rawPath = q < 0 ? req.url : req.url.slice(0, q);
  const rawQueryString = q < 0 ? '' : req.url.slice(q + 1);

  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(',') : value;
    // Payload 2.0 moves cookies out of the headers into their own array.
    if (key === 'cookie') cookies = joined.split(/;\s*/).filter(Boolean);
    else headers[key] = joined;
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${req.sourceIp}`
    : req.sourceIp;
  headers['x-forwarded-proto'] ??= 'http';

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    // A Map, then own properties: `constructor` or `__proto__` in the query are plain names, as in
    // the JSON event API Gateway delivers, not members of Object.prototype.
    const joined = new Map<string, string>();
    for (const [k, v] of new URLSearchParams(rawQueryString)) {
      const before = joined.get(k);
      joined.set(k, before === undefined ? v : `${before},${v}`);
    }
    queryStringParameters = Object.fromEntries(joined);
  }

  const method = req.method.toUpperCase();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0],
      http: {
        method,
        path: rawPath,
        protocol: req.protocol,
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: gatewayTime(now),
      timeEpoch: now,
    },
    isBase64Encoded: false,
  };
  if (req.body.length > 0) {
    if (isUtf8Text(headers['content-type'] ?? '', req.body)) event.body = req.body.toString('utf8');
    else {
      event.body = req.body.toString('base64');
      event.isBase64Encoded = true;
    }
  }
  return event;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** How API Gateway turns a payload 2.0 result into an HTTP response. */
export function fromApiResult(result: APIGatewayProxyResultV2): HttpReply {
  // A result without statusCode is taken as the JSON body of a 200 (the gateway's inference).
  if (result === null || typeof result !== 'object' || !('statusCode' in result)) {
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(typeof result === 'string' ? result : (JSON.stringify(result) ?? ''), 'utf8'),
    };
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  return { status: result.statusCode ?? 200, headers, body };
}

function envelopeReply(status: number, code: number, msg: string, requestId: string): HttpReply {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      [HEADERS.requestId]: requestId,
    },
    body: Buffer.from(JSON.stringify({ code, msg, request_id: requestId })),
  };
}

function writeReply(res: ServerResponse, reply: HttpReply, method: string): void {
  res.statusCode = reply.status;
  for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
  res.setHeader('content-length', reply.body.length);
  res.end(method === 'HEAD' ? undefined : reply.body);
}

class BodyTooLargeError extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/**
 * Serves one HTTP request with a Lambda handler, as API Gateway would: body limit, event,
 * context, and the structured result back on the wire. A handler that throws is a 500
 * (API Gateway would answer "Internal Server Error" without detail).
 */
export async function serveWithLambda(
  req: IncomingMessage,
  res: ServerResponse,
  handler: ApiHandler,
  context: () => Context,
  onError: (error: unknown) => void = () => {},
): Promise<void> {
  const requestId = randomUUID();
  const method = (req.method ?? 'GET').toUpperCase();
  const declared = Number(req.headers['content-length'] ?? 0);
  let body: Buffer;
  try {
    if (declared > MAX_EVENT_BODY_BYTES) throw new BodyTooLargeError();
    body = await readBody(req, MAX_EVENT_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    // Answer at once and keep nothing of the rest. The rest is still drained (for a bounded
    // time): closing a socket with unread data resets it, and the client would see
    // ECONNRESET or EPIPE instead of the 413.
    writeReply(
      res,
      envelopeReply(413, ErrorCode.PayloadTooLarge, 'Request body is larger than 6 MB', requestId),
      method,
    );
    const cut = setTimeout(() => req.destroy(), 2_000);
    req.once('end', () => clearTimeout(cut));
    req.once('close', () => clearTimeout(cut));
    req.resume();
    return;
  }
  const event = toApiEvent({
    method,
    url: req.url ?? '/',
    headers: req.headers,
    body,
    sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
    protocol: `HTTP/${req.httpVersion}`,
    requestId,
  });
  let reply: HttpReply;
  try {
    reply = fromApiResult(await handler(event, context()));
  } catch (error) {
    onError(error);
    reply = envelopeReply(500, ErrorCode.Internal, 'Internal error, try later.', requestId);
  }
  writeReply(res, reply, method);
}
