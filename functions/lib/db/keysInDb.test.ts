import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const FUNCTIONS = join(import.meta.dirname, '../..');

describe('the table layout', () => {
  it('is built in lib/db alone: no module elsewhere writes a key (`{ pk: …, sk: … }`) of its own', () => {
    const offenders = readdirSync(FUNCTIONS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith(join('lib', 'db')))
      .filter((f) => /\bpk\s*[:,][^;\n]*\bsk\s*[:,}]/.test(readFileSync(join(FUNCTIONS, f), 'utf8')))
      .map((f) => relative(FUNCTIONS, join(FUNCTIONS, f)));
    expect(offenders, 'name their records through lib/db (keyedRecords, leaseKind, an entity)').toEqual([]);
  });
});
