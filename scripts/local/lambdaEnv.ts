import type { LambdaDef } from '../../functions/registry.js';

/** Secrets of the local server that no handler reads from its environment. */
const NEVER_PASSED = ['ADMIN_PASSWORD'] as const;

/**
 * The environment one Lambda runs with locally, derived from its registry `access` the way the
 * CDK app derives its grants: JWT_SECRET only for a function with `jwt`, the secrets key file
 * only for one with `secrets`, the admin's first password never.
 */
export function lambdaEnv(
  def: Pick<LambdaDef, 'access'>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  for (const k of NEVER_PASSED) delete out[k];
  if (!def.access.jwt) {
    delete out.JWT_SECRET;
    delete out.JWT_SECRET_REVISION;
  }
  if (!def.access.secrets) delete out.SECRETS_KEY_FILE;
  return out;
}
