import type { ApiTokenScopeValue } from '../../../shared/schemas/apiTokens.js';
import { REVEAL_RATE_LIMIT } from '../secrets/revealRateLimit.js';
import { lowestRole, type Route } from './router.js';

const READS = new Set(['GET', 'HEAD']);

/**
 * A secret's reveal: a route counted against the reveals' budget, or any read that is audited (a
 * read is audited only to record who saw a secret). No token reaches one, whatever its scope.
 */
export function isReveal(route: Pick<Route, 'method' | 'audit' | 'rateLimit'>): boolean {
  if (route.rateLimit?.rule === REVEAL_RATE_LIMIT) return true;
  return READS.has(route.method) && route.audit !== undefined && route.audit !== false;
}

/**
 * Whether an API token of `scope` may call `route` (issue 46 item 2), checked on the server after
 * the token is known good. A token acts below its creator (a super user):
 * - `metrics`: only the routes that declare `tokenScope: 'metrics'` (GET /metrics);
 * - `read`: every GET a viewer may make;
 * - `operate`: what an operator may do, but no reveal, and none of the creator's own-account writes
 *   (routes that declare `role: 'viewer'` on a write: logout, own password, second factors), which
 *   belong to a person at a console, not a script.
 * Never the super area. A route that takes only tokens of one scope takes no other.
 */
export function tokenAllows(
  scope: ApiTokenScopeValue,
  route: Pick<Route, 'method' | 'access' | 'role' | 'audit' | 'rateLimit' | 'tokenScope'>,
): boolean {
  if (route.tokenScope) return route.tokenScope === scope;
  if (scope === 'metrics' || route.access !== 'user') return false;
  if (isReveal(route)) return false;
  const lowest = lowestRole(route);
  if (scope === 'read') return READS.has(route.method) && lowest === 'viewer';
  if (lowest === 'super') return false;
  if (!READS.has(route.method) && route.role === 'viewer') return false;
  return true;
}
