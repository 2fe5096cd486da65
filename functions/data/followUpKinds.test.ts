import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followUpKinds } from '../lib/db/outbox.js';
import { allFollowUpKinds } from './followUpKinds.js';

const FUNCTIONS = join(import.meta.dirname, '..');

/** Every module under functions/ that declares a follow-up kind. */
function declaringModules(): string[] {
  return readdirSync(FUNCTIONS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('lib/db/'))
    .filter((f) => /\bdefineFollowUp\s*(<[^>]*>)?\s*\(/.test(readFileSync(join(FUNCTIONS, f), 'utf8')))
    .map((f) => join(FUNCTIONS, f));
}

describe('followUpKinds', () => {
  it('knows every kind a module declares, as the sweeper bundle sees it', async () => {
    // Imported first, alone (as in the followUpSweeper bundle): what the sweeper can apply.
    const known = new Set(allFollowUpKinds());
    const modules = declaringModules();
    expect(modules.length).toBeGreaterThan(3);
    for (const module of modules) await import(module);
    const missing = followUpKinds().filter((kind) => !known.has(kind));
    expect(
      missing,
      `import their modules in functions/data/followUpKinds.ts (${modules.map((m) => relative(FUNCTIONS, m)).join(', ')})`,
    ).toEqual([]);
  });
});
