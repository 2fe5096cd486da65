// One HTTP call to a bank portal, through the outbound URL guard. The host is resolved and judged
// for every call, and the connection goes to exactly the address that was judged (a pinned
// `lookup`), so neither a DNS change nor a redirect can point a poll at the machine's own
// services or the cloud metadata endpoint. Redirects are never followed: a portal's 302 is an
// answer the driver reads (AYA sends an expired session to its login page).
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { OutboundUrlRefusedError, resolveOutboundTarget } from '../../lib/net/outboundUrlGuard';
import type { BankDriverContext } from './bankDriver';
import { BankTransientError } from './errors';

export interface PortalResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Cookies the answer set, name -> value. */
  setCookies: Record<string, string>;
}

export interface PortalRequestInit {
  method?: 'GET' | 'POST';
  /** Path and query under the portal's base URL, e.g. `/api/v1/accounts?x=1`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A portal answer larger than this is not a statement page: refused rather than buffered. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The call as named in messages: method and path without the query (which may carry dates or ids). */
export const callName = (init: PortalRequestInit) => `${init.method ?? 'GET'} ${init.path.split('?')[0]}`;

/**
 * Sends one request. 5xx, timeouts, refused connections and refused addresses throw
 * `BankTransientError`; any other status is returned for the driver to read.
 */
export async function portalRequest(ctx: BankDriverContext, init: PortalRequestInit): Promise<PortalResponse> {
  const call = callName(init);
  const url = new URL(ctx.portal.url.replace(/\/+$/, '') + init.path);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BankTransientError(`Refused to call ${url.protocol} URL at ${call}: not http(s)`);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let address: string;
  try {
    ({ address } = await resolveOutboundTarget(url.hostname, port, { allowedHosts: ctx.allowedPrivateHosts }));
  } catch (err) {
    if (err instanceof OutboundUrlRefusedError) throw new BankTransientError(`Refused to call the bank: ${err.reason}`);
    throw err;
  }
  const family = address.includes(':') ? 6 : 4;
  const lookup: LookupFunction = (_host, options, cb) => {
    if (options.all) (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const res = await new Promise<PortalResponse>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json, text/html;q=0.9',
        ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }),
        ...init.headers,
      },
      lookup,
    });
    const timer = setTimeout(() => {
      req.destroy(
        new BankTransientError(`Timed out after ${ctx.timeoutMs} ms at ${call}: the bank did not answer in time`),
      );
    }, ctx.timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(
        err instanceof BankTransientError
          ? err
          : new BankTransientError(`Could not reach the bank at ${call}: ${err.message}`, { cause: err }),
      );
    };
    req.on('error', fail);
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) req.destroy(new BankTransientError(`The bank's answer to ${call} is too large`));
        else chunks.push(c);
      });
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        const setCookies: Record<string, string> = {};
        for (const line of response.headers['set-cookie'] ?? []) {
          const m = /^\s*([^=;\s]+)=([^;]*)/.exec(line);
          if (m) setCookies[m[1]] = m[2];
        }
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          setCookies,
        });
      });
    });
    req.end(init.body);
  });
  if (res.status >= 500)
    throw new BankTransientError(`Bank answered HTTP ${res.status} to ${call}`, { statusCode: res.status });
  return res;
}

/** JSON of an answer, or undefined when it is not JSON (the driver says what it expected). */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
