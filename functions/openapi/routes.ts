import { router, rootRouter } from '../api.js';
import { RawReply, Router } from '../lib/http/router.js';
import { openApiDocument } from './openApiDocument.js';

/** The document's version: the API's, bumped when the wire changes. */
export const API_DOCUMENT_VERSION = '1.0.0';

let document: string | undefined;

/**
 * GET /api/v1/openapi.json (public): the API document, built once per process from the routers
 * (read at call time, since api.ts includes this router while it builds them). The bare document,
 * not the envelope, so Swagger UI, Redoc and code generators read it as it is.
 */
export const openApiRouter = new Router().get(
  '/openapi.json',
  () => {
    document ??= JSON.stringify(openApiDocument(router, rootRouter, API_DOCUMENT_VERSION));
    return new RawReply(200, document, { 'content-type': 'application/json' });
  },
  { access: 'public' },
);
