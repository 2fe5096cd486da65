import { PATROL_SCHEMA_PATH, patrolFileJsonSchema } from '../../shared/schemas/patrolFile.js';
import { RawReply, Router } from '../lib/http/router.js';

let document: string | undefined;

/**
 * GET /api/v1/patrol.schema.json: the JSON Schema of the patrol command's file (issue 46 item 4,
 * docs/automation.md), generated from its zod schema once per process. Public, as openapi.json is:
 * it describes a format and holds no data, and an editor (yaml-language-server's `$schema` line)
 * fetches it without credentials. The bare schema, not the envelope, so editors read it as it is.
 */
export const patrolSchemaRouter = new Router().get(
  PATROL_SCHEMA_PATH,
  () => {
    document ??= JSON.stringify(patrolFileJsonSchema());
    return new RawReply(200, document, {
      'content-type': 'application/schema+json',
      'cache-control': 'public, max-age=300',
    });
  },
  { access: 'public' },
);
