// The table's indexes, one definition (functions/lib/db/tableSchema.ts): the CDK table and the local
// engines' CreateTable build every index from it, projection included, and every entity's lists read
// only what their indexes carry. Walks allEntities(), so an entity added anywhere is checked here.

import { describe, expect, it } from 'vitest';
import { allEntities } from '../../functions/data/entities.js';
import { indexShowsRows, queriedAttributes, slotIndexOf } from '../../functions/lib/db/listEngine.js';
import { isInternal } from '../../functions/lib/db/keys.js';
import {
  ALL_INDEXES,
  carries,
  createTableInput,
  type IndexName,
  projectedAttributes,
  TABLE_INDEXES,
  TABLE_KEYS,
} from '../../functions/lib/db/tableSchema.js';
import { fieldSpec } from '../../shared/listQuery.js';
import { synthStack } from './synthStack.js';
import { type Json, ofType } from './templateQueries.js';

/** DynamoDB's limits (API reference, Projection.NonKeyAttributes). */
const INCLUDE_MAX = 20;
const TABLE_MAX = 100;

const shape = (i: Json) => ({
  name: i.IndexName,
  keys: i.KeySchema.map((k: Json) => `${k.KeyType}:${k.AttributeName}`),
  projection: i.Projection.ProjectionType,
  attributes: i.Projection.NonKeyAttributes ?? [],
});

/** The indexes a list of an entity may read: byType, and the slot of each key field. */
function indexesOf(def: ReturnType<typeof allEntities>[number]): IndexName[] {
  return ['byType', ...(def.keys ?? []).map((f) => slotIndexOf(def, f) as IndexName)];
}

/** Every attribute a list of the entity may filter, sort, search or scope on. */
function askedOf(def: ReturnType<typeof allEntities>[number]): string[] {
  const asked = Object.entries(def.fields).flatMap(([field, declared]) => {
    const spec = fieldSpec(declared);
    return spec.filter || spec.sort || spec.search ? queriedAttributes(def, field) : [];
  });
  // A scope names a key field: read through another slot, it is a filter there.
  return [...new Set([...asked, ...(def.keys ?? [])])];
}

describe('the table indexes: one definition, projections that carry what the lists read', () => {
  const { template } = synthStack();
  const [[, table]] = ofType(template, 'AWS::DynamoDB::Table');
  const synthesized = ((table.Properties?.GlobalSecondaryIndexes ?? []) as Json[]).map(shape);

  it('the CDK table and the local CreateTable declare the same indexes, each as lib/db declares it', () => {
    const local = createTableInput('t').GlobalSecondaryIndexes.map(shape);
    expect(synthesized).toEqual(local);
    expect(synthesized).toEqual(
      ALL_INDEXES.map((i) => ({
        name: i.name,
        keys: [`HASH:${i.partitionKey}`, `RANGE:${i.sortKey}`],
        projection: i.projection.type,
        attributes: projectedAttributes(i.projection) ?? [],
      })),
    );
  });

  it('stays within DynamoDB limits: 20 projected attributes an index, 100 over the table, none a key', () => {
    const keyAttrs = new Set<string>([
      TABLE_KEYS.partitionKey,
      TABLE_KEYS.sortKey,
      ...ALL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey]),
    ]);
    let sum = 0;
    for (const i of synthesized) {
      expect(i.attributes.length, i.name).toBeLessThanOrEqual(INCLUDE_MAX);
      expect(new Set(i.attributes).size, `${i.name} names an attribute twice`).toBe(i.attributes.length);
      expect(
        i.attributes.filter((a: string) => keyAttrs.has(a)),
        `${i.name} projects a key`,
      ).toEqual([]);
      sum += i.attributes.length;
    }
    expect(sum).toBeLessThanOrEqual(TABLE_MAX);
  });

  it('copies everything (ALL) or keys only where the declaration says why', () => {
    for (const i of ALL_INDEXES) {
      if (i.projection.type !== 'INCLUDE') expect(i.projection.why.length, i.name).toBeGreaterThan(20);
    }
  });

  it('never copies a storage attribute (follow-ups, counted causes, shadows aside) or a hidden field', () => {
    const hidden = new Set<string>(allEntities().flatMap((d) => d.hidden ?? []));
    for (const i of TABLE_INDEXES) {
      const leaked = (projectedAttributes(i.projection) ?? []).filter(
        (a) => (isInternal(a) && !a.startsWith('_lc_')) || hidden.has(a),
      );
      expect(leaked, i.name).toEqual([]);
    }
  });

  it('every entity: each index its lists may read carries what they filter, sort, search and scope on', () => {
    const missing: string[] = [];
    for (const def of allEntities()) {
      for (const name of indexesOf(def)) {
        const index = TABLE_INDEXES.find((i) => i.name === name);
        if (!index) continue;
        for (const attr of askedOf(def)) if (!carries(index, attr)) missing.push(`${def.type} on ${name}: ${attr}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every entity: each narrowed index its lists read shows whole rows (no page read back from the table)', () => {
    const fetched: string[] = [];
    for (const def of allEntities()) {
      for (const name of indexesOf(def)) {
        const index = TABLE_INDEXES.find((i) => i.name === name);
        if (index?.projection.type !== 'ALL' && !indexShowsRows(def, name)) fetched.push(`${def.type} on ${name}`);
      }
    }
    // A field added to such an entity's list belongs in its index's projection (tableSchema.ts), or the
    // list reads its page from the table: 0.5 RCU a row more. Today none does.
    expect(fetched).toEqual([]);
  });

  it('keeps a retired index for a stage that names it (its successor created beside it), and refuses another name', () => {
    const kept = synthStack({ stageOverrides: { keptIndexes: ['byKey6'] } }).template;
    const [[, t]] = ofType(kept, 'AWS::DynamoDB::Table');
    const names = ((t.Properties?.GlobalSecondaryIndexes ?? []) as Json[]).map(shape);
    // One index more than the declaration: the deploy creates the successor alone (CloudFormation's one a deploy).
    expect(names.map((i) => i.name)).toEqual([...synthesized.map((i) => i.name), 'byKey6']);
    expect(names.at(-1)).toMatchObject({ keys: ['HASH:gsi7pk', 'RANGE:gsi7sk'], projection: 'ALL' });
    expect(() => synthStack({ stageOverrides: { keptIndexes: ['byKey9'] } })).toThrow(/byKey9 is no retired index/);
  });

  it('the narrowed index has the one tenant it was narrowed for', () => {
    const tenants = (name: IndexName) =>
      allEntities().flatMap((d) => (indexesOf(d).slice(1).includes(name) ? [d.type] : []));
    expect(tenants('byKey6Include')).toEqual(['subtask']);
  });
});
