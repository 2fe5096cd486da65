import { ValidationError } from '../../errors.js';
import { type ApiMiddleware, apiState, matchedRoute } from './apiState.js';
import { zodExtra } from './envelope.js';

/**
 * Checks the body against the route's zod schema and keeps what the schema made of it
 * (defaults, trims, coercions). A missing body is read as `{}`, so its required fields are
 * named one by one instead of one bare "expected object". Routes without a schema get the
 * parsed JSON as it came. A route's `query` schema checks the query string the same way.
 */
export function validation(): ApiMiddleware {
  return {
    before: (request) => {
      const state = apiState(request);
      const route = matchedRoute(request);
      if (route.query) {
        const parsed = route.query.safeParse(request.event.queryStringParameters ?? {});
        if (!parsed.success) throw new ValidationError(zodExtra(parsed.error));
        state.queryData = parsed.data;
      }
      const schema = route.body;
      if (!schema) return;
      const parsed = schema.safeParse(state.body ?? {});
      if (!parsed.success) throw new ValidationError(zodExtra(parsed.error));
      state.body = parsed.data;
    },
  };
}
