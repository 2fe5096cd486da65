// Runs a verification recipe of the Help page (shared/webhookRecipes.ts) as an integrator would: its
// exact text saved as an ES module and imported by a small harness in a fresh `node`, so the text
// itself (imports included) is what is tested, not a copy of its logic.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { VERIFY_FUNCTION } from '../../shared/webhookRecipes.js';

/** The repository root: a module there resolves `standardwebhooks` from its node_modules, as an integrator's would. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface RecipeCase {
  secret: string;
  rawBody: string;
  headers: Record<string, string>;
}

export type RecipeOutcome = { accepted: true; body: unknown } | { accepted: false; error: string };

const HARNESS = `import { readFileSync } from 'node:fs';
import { ${VERIFY_FUNCTION} as verify } from './recipe.mjs';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const outcomes = [];
for (const c of cases) {
  try {
    outcomes.push({ accepted: true, body: await verify(c.secret, c.rawBody, c.headers) });
  } catch (error) {
    outcomes.push({ accepted: false, error: String(error?.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(outcomes));
`;

/** Each case's outcome under `source`, in order. */
export async function runRecipe(source: string, cases: readonly RecipeCase[]): Promise<RecipeOutcome[]> {
  const dir = await mkdtemp(join(ROOT, '.tmp-recipe-'));
  try {
    await writeFile(join(dir, 'recipe.mjs'), source);
    await writeFile(join(dir, 'harness.mjs'), HARNESS);
    await writeFile(join(dir, 'cases.json'), JSON.stringify(cases));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(dir, 'harness.mjs'), join(dir, 'cases.json')],
      {
        cwd: dir,
        timeout: 30_000,
      },
    );
    return JSON.parse(stdout) as RecipeOutcome[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
