// A JSON request to a URL someone configured (the Telegram Bot API, later bank webhooks), through
// the private-address guard. The guard resolves the host and this request connects to exactly the
// address it checked (the `lookup` below), so DNS cannot answer one address to the check and
// another to the connection. TLS still verifies the certificate against the host name.
import type { LookupAddress, LookupOneOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { config } from '../config.js';
import { type OutboundGuardOptions, OutboundUrlRefusedError, resolveOutboundTarget } from './outboundUrlGuard.js';

export interface GuardedJsonReply {
  status: number;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
  headers: IncomingMessage['headers'];
}

/** The request did not get an answer: refused by the guard, no connection, timed out. Never carries the URL (it may hold a token). */
export class OutboundRequestError extends Error {
  override name = 'OutboundRequestError';
}

export interface GuardedJsonOptions extends OutboundGuardOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** A multipart/form-data body instead of JSON (Telegram's sendDocument): encoded by the platform's FormData. */
  form?: FormData;
  headers?: Record<string, string>;
  /** Default 10 s: the whole exchange, connection included. */
  timeoutMs?: number;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export async function guardedJsonRequest(rawUrl: string, opts: GuardedJsonOptions = {}): Promise<GuardedJsonReply> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRequestError('only http(s) URLs are called');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let target: Awaited<ReturnType<typeof resolveOutboundTarget>>;
  try {
    target = await resolveOutboundTarget(url.hostname, port, {
      allowedHosts: opts.allowedHosts ?? config.allowedPrivateHosts,
      resolve: opts.resolve,
    });
  } catch (error) {
    if (error instanceof OutboundUrlRefusedError) throw new OutboundRequestError(`refused: ${error.reason}`);
    throw error;
  }
  const family = isIP(target.address) || 4;
  // Node asks with `all: true` when it races address families; both forms answer the checked address.
  const lookup = (_host: string, options: LookupOneOptions & { all?: boolean }, cb: LookupCallback) => {
    if (options?.all) cb(null, [{ address: target.address, family }]);
    else cb(null, target.address, family);
  };
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  let payload: string | Buffer | undefined;
  if (opts.form) {
    // Response encodes FormData as fetch would (boundary and all), without sending it: the guarded request sends it.
    const encoded = new Response(opts.form);
    payload = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
  } else if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<GuardedJsonReply>((resolve, reject) => {
    const req = send(
      url,
      {
        method: opts.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers,
        lookup: lookup as never,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => reject(new OutboundRequestError('the answer was cut off')));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: the caller sees the text.
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.setTimeout(opts.timeoutMs ?? 10_000, () =>
      req.destroy(new OutboundRequestError(`no answer within ${(opts.timeoutMs ?? 10_000) / 1000} s`)),
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error instanceof OutboundRequestError
          ? error
          : // The code only (ECONNREFUSED, ENOTFOUND...): node's message can name the URL.
            new OutboundRequestError(`no connection (${error.code ?? 'network error'})`),
      ),
    );
    req.end(payload);
  });
}
