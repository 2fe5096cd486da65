import { RawReply, Router } from '../lib/http/router.js';
import { openApiDocument } from './openApiDocument.js';

/** The document's version: the API's, bumped when the wire changes. */
export const API_DOCUMENT_VERSION = '1.0.0';

let document: string | undefined;

/**
 * GET /api/v1/openapi.json (public): the API document, built once per process from the routers.
 * They are handed in as a function, read at the first call: api.ts builds them with this router
 * among their routes. The bare document, not the envelope, so Swagger UI, Redoc and code
 * generators read it as it is.
 */
export function openApiRouter(routers: () => { api: Router; root: Router }): Router {
  return new Router().get(
    '/openapi.json',
    () => {
      if (document === undefined) {
        const { api, root } = routers();
        document = JSON.stringify(openApiDocument(api, root, API_DOCUMENT_VERSION));
      }
      return new RawReply(200, document, { 'content-type': 'application/json' });
    },
    { access: 'public' },
  );
}
