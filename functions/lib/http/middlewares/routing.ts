import { ErrorCode } from '../../../../shared/errors.js';
import { BadRequestError, NotFoundError, PatrolError } from '../../errors.js';
import type { Router } from '../router.js';
import { type ApiMiddleware, apiState } from './apiState.js';

export class RouteNotFoundError extends NotFoundError {
  override name = 'RouteNotFoundError';
  override code: number = ErrorCode.RouteNotFound;
}

export class MethodNotAllowedError extends PatrolError {
  override name = 'MethodNotAllowedError';
  override status = 405;
  override code: number = ErrorCode.MethodNotAllowed;
}

/**
 * Finds the route of the call (404 for an unknown path, 405 for a known path called with
 * another method) and reads its path parameters: an id (`:id`) as a number, 400 when it is not a
 * positive whole number (0); any other one decoded. It runs before access, so an unknown route
 * is a 404 for everyone; a parameter that is not valid percent-encoding (`%ZZ`) is the
 * caller's mistake, a 400, not a 500.
 */
export function routing(router: Router): ApiMiddleware {
  return {
    before: (request) => {
      const state = apiState(request);
      const method = (request.event.requestContext?.http?.method ?? 'GET').toUpperCase();
      const path = state.path;
      const found = router.find(method, path);
      if (found === 'not-found') throw new RouteNotFoundError(`No such API: ${method} ${path}`);
      if (found === 'bad-method') throw new MethodNotAllowedError(`${method} is not allowed on ${path}`);
      const params: Record<string, string | number> = {};
      for (const [name, raw] of Object.entries(found.params)) {
        if (found.route.ids.includes(name)) {
          // An id segment matched digits only (router.ts compile): it is the number, or no id at all.
          const id = Number(raw);
          if (!Number.isSafeInteger(id) || id < 1)
            throw new BadRequestError(`${name} must be a positive whole number: ${raw}`, {
              extra: { [name]: 'Must be a positive whole number' },
            });
          params[name] = id;
          continue;
        }
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          throw new BadRequestError(`The path has a malformed escape in ${name}: ${raw}`, {
            extra: { [name]: 'Malformed percent-encoding in the path' },
          });
        }
      }
      state.route = found.route;
      state.params = params;
    },
  };
}
