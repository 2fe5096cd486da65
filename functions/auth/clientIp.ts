import type { Request } from '../lib/http/router.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The caller's address for login throttling. In the cloud it is API Gateway's sourceIp,
 * which the client cannot set. Only when the request reached us from this machine (a
 * local dev proxy in front of the API) is X-Forwarded-For trusted, taking its nearest
 * address that is not this machine.
 */
export function clientIp(req: Pick<Request, 'sourceIp' | 'headers'>): string {
  const source = req.sourceIp || 'unknown';
  if (!LOOPBACK.test(source)) return source;
  const forwarded = (req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !LOOPBACK.test(s));
  return forwarded.at(-1) ?? source;
}
