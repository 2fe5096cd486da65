import { timingSafeEqual } from 'node:crypto';
import { config } from '../lib/config.js';
import type { Request } from '../lib/http/router.js';

/** The header CloudFront adds to every request it sends to the API (infra/constructs/Web.ts). */
export const ORIGIN_VERIFY_HEADER = 'x-patrol-origin-verify';
/** CloudFront's own header with the viewer's address and port, e.g. `198.51.100.7:53711` or `2001:db8::1:443`. */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** `ip:port` -> ip; IPv6 addresses carry colons of their own, so the port is what follows the last one. */
function stripPort(address: string): string {
  const at = address.lastIndexOf(':');
  return at > 0 ? address.slice(0, at) : address;
}

const normalise = (ip: string) => ip.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');

/**
 * The caller's address, for throttling and the security log. Only what a trusted hop says is
 * believed, never what the client wrote:
 * - cloud: CloudFront's viewer address, but only on requests that carry the origin secret
 *   CloudFront adds (anyone could call the API's own address and write that header): the API's
 *   origin gate (functions/lib/http/middlewares/originGate.ts) refuses every other request in
 *   the cloud before a route runs; with a literal ORIGIN_SECRET (tests) it is compared here;
 *   without either, API Gateway's sourceIp, the address that connected to it;
 * - locally: the socket address, unless that socket is a proxy listed in TRUSTED_PROXIES, whose
 *   X-Forwarded-For then names the client (its nearest entry that is not itself a trusted proxy).
 */
export function clientIp(req: Pick<Request, 'sourceIp' | 'headers'>): string {
  const source = normalise(req.sourceIp || '') || 'unknown';
  const secret = config.originSecret;
  const viewer = req.headers[VIEWER_ADDRESS_HEADER];
  const throughEdge = secret
    ? sameSecret(req.headers[ORIGIN_VERIFY_HEADER] ?? '', secret)
    : config.originSecretArn !== undefined;
  if (viewer && throughEdge) {
    return normalise(stripPort(viewer));
  }
  const trusted = new Set(config.trustedProxies.map(normalise));
  if (!trusted.has(source)) return source;
  const hops = (req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map(normalise)
    .filter((hop) => hop && !trusted.has(hop));
  return hops.at(-1) ?? source;
}
