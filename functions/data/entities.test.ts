import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allEntities } from './entities.js';

const FUNCTIONS = join(import.meta.dirname, '..');

/** Every module under functions/ that declares an entity (`defineEntity<...>(` or `defineEntity(`). */
function definingModules(): string[] {
  return readdirSync(FUNCTIONS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('lib/db/'))
    .filter((f) => /\bdefineEntity\s*(<[^>]*>)?\s*\(/.test(readFileSync(join(FUNCTIONS, f), 'utf8')))
    .map((f) => join(FUNCTIONS, f));
}

describe('allEntities', () => {
  it('holds every entity a module declares, as a Lambda bundle of the repair or the sweeper sees it', async () => {
    // Imported first, alone (as in the dataRepair bundle): what the data handlers walk.
    const walked = new Set(allEntities().map((d) => d.type));
    const modules = definingModules();
    expect(modules.length).toBeGreaterThan(5);
    for (const module of modules) await import(module);
    const missing = allEntities()
      .map((d) => d.type)
      .filter((type) => !walked.has(type));
    expect(
      missing,
      `import their modules in functions/data/entities.ts (${modules.map((m) => relative(FUNCTIONS, m)).join(', ')})`,
    ).toEqual([]);
  });
});
