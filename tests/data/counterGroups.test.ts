// Counter groups (EntityDef.counterGroup, lib/db/partitions.ts listTotalKey): types written together
// keep their counts in shared items, so the counts of rows of both types move with one ADD per
// shared item; each type's lists still count only its own rows, and each type's repair recounts
// only its own attributes of the shared items (and moves an older layout's items to them).

import { DeleteCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { CounterBatch } from '../../functions/lib/db/counters.js';
import { defineEntity } from '../../functions/lib/db/entity.js';
import { newIdOf } from '../../functions/lib/db/ids.js';
import { createRepository, putNewRows } from '../../functions/lib/db/repository.js';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import { callsDuring, setupDynamo } from './engine.js';
import { BASE, type Sample, sampleDef, sampleRow } from './sampleEntity.js';

setupDynamo();

const day = { bucket: 'day' as const };
const a = createRepository(
  defineEntity<Sample>({ ...sampleDef, type: 'grp_a', partitioning: day, counterGroup: 'grp' }),
);
const b = createRepository(
  defineEntity<Sample>({ ...sampleDef, type: 'grp_b', partitioning: day, counterGroup: 'grp' }),
);
const q = (o: Partial<ListQuery> = {}) => emptyListQuery({ page_size: 5, ...o });

/** Counter items of the table, by pk. */
async function counterItems(): Promise<Record<string, unknown>[]> {
  const out = await dynamoClient().send(
    new ScanCommand({
      TableName: process.env.TABLE_NAME,
      FilterExpression: 'begins_with(pk, :c)',
      ExpressionAttributeValues: { ':c': 'count#' },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

async function expectCountsRight(repo: typeof a) {
  const rows = await repo.all();
  const total = async (query: ListQuery, scope?: Record<string, number>) =>
    (await repo.list(query, scope ? { scope } : undefined)).total_count;
  expect(await total(q())).toBe(rows.length);
  expect(await total(q(), { task_id: 1 })).toBe(rows.filter((r) => r.task_id === 1).length);
  expect(await total(q({ filters: { status: { kind: 'enum', values: [2] } } }))).toBe(
    rows.filter((r) => r.status === 2).length,
  );
}

describe('a counter group', () => {
  it("moves both types' counts with one ADD per shared item, and each type counts only its own rows", async () => {
    const batch = new CounterBatch();
    // Rows of one day and one parent each: a poll's statements and their notifications.
    for (let i = 0; i < 3; i++) await a.create({ ...sampleRow(i), created_at: BASE + i }, { counts: batch });
    for (let i = 0; i < 2; i++) await b.create({ ...sampleRow(i), created_at: BASE + i }, { counts: batch });
    const { calls: flushed } = await callsDuring(() => batch.flush());
    const items = new Set(flushed.filter((c) => c.command === 'UpdateItemCommand').map((c) => String(c.pk)));
    // The day's item (types and their enum / boolean slots), and one per parent value of the group.
    expect([...items].every((pk) => pk.startsWith('count#@grp'))).toBe(true);
    const parents = new Set(
      [0, 1, 2].flatMap((i) => [`task_id=${sampleRow(i).task_id}`, `subtask_id=${sampleRow(i).subtask_id}`]),
    );
    expect(items.size).toBe(1 + [...parents].filter((p) => !p.endsWith('=undefined')).length);
    expect((await counterItems()).filter((c) => String(c.pk).startsWith('count#grp_'))).toEqual([]);
    await expectCountsRight(a);
    await expectCountsRight(b);
    expect((await a.list(q())).total_count).toBe(3);
    expect((await b.list(q())).total_count).toBe(2);
  });

  it("repairs one type's counts without touching the other's, and moves an older layout's items into the group", async () => {
    // One type's counts off in the shared items, and an item of the layout before the group.
    const items = await counterItems();
    for (const item of items.filter((c) => String(c.pk).startsWith('count#@grp')))
      await dynamoClient().send(
        new PutCommand({
          TableName: process.env.TABLE_NAME,
          Item: Object.fromEntries(Object.entries(item).map(([k, v]) => [k, k.startsWith('grp_a') ? 99 : v])),
        }),
      );
    await dynamoClient().send(
      new PutCommand({ TableName: process.env.TABLE_NAME, Item: { pk: 'count#grp_a:task_id=1', sk: 'count', n: 7 } }),
    );
    const before = (await b.list(q())).total_count;
    await a.repair();
    await expectCountsRight(a);
    await expectCountsRight(b);
    expect((await b.list(q())).total_count).toBe(before);
    expect((await counterItems()).filter((c) => String(c.pk).startsWith('count#grp_'))).toEqual([]);
    // A type emptied: its attributes leave the shared items, the other type's stay.
    for (const row of await a.all())
      await dynamoClient().send(
        new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `grp_a#${row.id}`, sk: 'item' } }),
      );
    await a.repair();
    expect((await a.list(q())).total_count).toBe(0);
    expect((await a.list(q(), { scope: { task_id: 1 } })).total_count).toBe(0);
    await expectCountsRight(b);
    expect((await counterItems()).some((c) => Object.keys(c).some((k) => k.startsWith('grp_a')))).toBe(false);
  });
});

describe('prepared rows', () => {
  const c = createRepository(
    defineEntity<Sample>({ ...sampleDef, type: 'grp_c', partitioning: day, counterGroup: 'grp2', ids: 'blocks' }),
  );
  const d = createRepository(
    defineEntity<Sample>({ ...sampleDef, type: 'grp_d', partitioning: day, counterGroup: 'grp2', ids: 'blocks' }),
  );

  it('of two types are written by one BatchWriteItem, read back whole, and counted once the batch moves', async () => {
    const [cId, dId] = [await newIdOf(c.def), await newIdOf(d.def)];
    const batch = new CounterBatch();
    const prepared = [
      await c.newRow({ ...sampleRow(0), created_at: BASE }, cId),
      await d.newRow({ ...sampleRow(1), created_at: BASE }, dId),
    ];
    const { calls } = await callsDuring(() => putNewRows(prepared, batch));
    expect(calls.map((call) => call.command)).toEqual(['BatchWriteItemCommand']);
    expect(await c.get(cId)).toEqual(prepared[0].row);
    expect(await d.get(dId)).toEqual(prepared[1].row);

    // Written, and counted only when the caller moves the batch.
    expect((await c.list(q())).total_count).toBe(0);
    await batch.flush();
    await expectCountsRight(c);
    await expectCountsRight(d);
    expect((await d.list(q(), { scope: { task_id: sampleRow(1).task_id as number } })).total_count).toBe(1);
  });
});
