import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import type { LambdaDef } from '../../functions/registry.js';

export type LambdaHandler<E = unknown, R = unknown> = (event: E, context: Context) => Promise<R>;

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Imports the `handler` of a registry entry. Dynamic on purpose: handler modules may read
 * the environment when loaded, so the runner imports them only after it has set it.
 */
export async function loadHandler<E = unknown, R = unknown>(
  def: Pick<LambdaDef, 'name' | 'entry'>,
): Promise<LambdaHandler<E, R>> {
  const mod = (await import(pathToFileURL(resolve(REPO_ROOT, def.entry)).href)) as { handler?: unknown };
  if (typeof mod.handler !== 'function') throw new Error(`${def.entry} (lambda ${def.name}) exports no handler`);
  return mod.handler as LambdaHandler<E, R>;
}
