// A fetch-shaped request through the private-address guard, for libraries that take a `fetch` of
// their own (openid-client's `customFetch`): the host is resolved and judged by the guard, and the
// connection goes to exactly the address it checked, as guardedJsonRequest does. Answers are read
// whole (bounded) into a standard Response; redirects are never followed (the caller sees them).
import type { LookupAddress, LookupOneOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { config } from '../config.js';
import { OutboundRequestError } from './guardedJsonRequest.js';
import { type OutboundGuardOptions, OutboundUrlRefusedError, resolveOutboundTarget } from './outboundUrlGuard.js';

export interface GuardedFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | null;
  signal?: AbortSignal;
}

export interface GuardedFetchOptions extends OutboundGuardOptions {
  /** Default 10 s: the whole exchange, connection included. */
  timeoutMs?: number;
  /** Default 1 MB: a discovery document or a token answer is a few KB. */
  maxBytes?: number;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function bodyBytes(body: GuardedFetchInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(String(body), 'utf8');
  return Buffer.from(body instanceof ArrayBuffer ? new Uint8Array(body) : body);
}

/** A `fetch(url, init)` bound to the guard's options; throws OutboundRequestError when there is no answer. */
export function guardedFetch(options: GuardedFetchOptions = {}) {
  return async (rawUrl: string, init: GuardedFetchInit = {}): Promise<Response> => {
    const url = new URL(rawUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRequestError('only http(s) URLs are called');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    let address: string;
    try {
      ({ address } = await resolveOutboundTarget(url.hostname, port, {
        allowedHosts: options.allowedHosts ?? config.allowedPrivateHosts,
        resolve: options.resolve,
      }));
    } catch (error) {
      if (error instanceof OutboundUrlRefusedError) throw new OutboundRequestError(`refused: ${error.reason}`);
      throw error;
    }
    const family = isIP(address) || 4;
    const lookup = (_host: string, opts: LookupOneOptions & { all?: boolean }, cb: LookupCallback) => {
      if (opts?.all) cb(null, [{ address, family }]);
      else cb(null, address, family);
    };
    const payload = bodyBytes(init.body);
    const headers: Record<string, string> = { ...init.headers };
    if (payload) headers['content-length'] = String(payload.length);
    if (init.body instanceof URLSearchParams && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    const maxBytes = options.maxBytes ?? 1_048_576;
    const timeoutMs = options.timeoutMs ?? 10_000;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        { method: init.method ?? 'GET', headers, lookup: lookup as never, agent: false, signal: init.signal },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) req.destroy(new OutboundRequestError('the answer is too large'));
            else chunks.push(c);
          });
          res.on('error', () => reject(new OutboundRequestError('the answer was cut off')));
          res.on('end', () => {
            const out = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined) continue;
              for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
            }
            const status = res.statusCode ?? 502;
            // A Response may carry no body with these statuses.
            const empty = status === 204 || status === 304;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
          });
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new OutboundRequestError(`no answer within ${timeoutMs / 1000} s`)));
      req.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          error instanceof OutboundRequestError
            ? error
            : // The code only (ECONNREFUSED...): node's message can name the URL.
              new OutboundRequestError(`no connection (${error.code ?? error.name ?? 'network error'})`),
        ),
      );
      req.end(payload);
    });
  };
}
