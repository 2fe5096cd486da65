// The counts of an unspread type's enum and boolean slot values share one item per field
// (lib/db/partitions.ts listTotalKey, isValueSlot): a row moving from one value to another (a subtask
// Pending -> Running -> Done) moves one item, where each value had an item of its own before. Lists
// filtered on a value still read its count, and the repair moves the older per-value items into the
// field's item.

import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { defineEntity } from '../../functions/lib/db/entity.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import { callsDuring, setupDynamo } from './engine.js';
import { type Sample, sampleDef, sampleRow } from './sampleEntity.js';

setupDynamo();

const repo = createRepository(defineEntity<Sample>({ ...sampleDef, type: 'valued' }));
const q = (o: Partial<ListQuery> = {}) => emptyListQuery({ page_size: 5, ...o });
const byStatus = (status: number) => q({ filters: { status: { kind: 'enum', values: [status] } } });
const byEnable = (enable: boolean) => q({ filters: { enable: { kind: 'boolean', value: enable } } });

async function expectCountsRight() {
  const rows = await repo.all();
  expect((await repo.list(q())).total_count).toBe(rows.length);
  for (const status of [1, 2, 3])
    expect((await repo.list(byStatus(status))).total_count).toBe(rows.filter((r) => r.status === status).length);
  for (const enable of [true, false])
    expect((await repo.list(byEnable(enable))).total_count).toBe(rows.filter((r) => r.enable === enable).length);
  expect((await repo.list(q(), { scope: { task_id: 1 } })).total_count).toBe(
    rows.filter((r) => r.task_id === 1).length,
  );
}

const counterOf = async (pk: string) =>
  (await dynamoClient().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk, sk: 'count' } }))).Item;

describe("an unspread type's value slots", () => {
  it("keep every value's count in one item per field, so a move between two values is one ADD", async () => {
    const made = await repo.createMany(Array.from({ length: 6 }, (_, i) => sampleRow(i)));
    const status = await counterOf('count#valued:status');
    expect(status).toMatchObject({ 'status=1': 2, 'status=2': 2, 'status=3': 2 });
    expect(await counterOf('count#valued:status=1')).toBeUndefined();
    expect(await counterOf('count#valued:enable')).toMatchObject({ 'enable=true': 3, 'enable=false': 3 });

    const moved = made.find((r) => r.status === 1) as Sample;
    const { calls } = await callsDuring(() => repo.update(moved.id, { status: 3 }));
    const counterWrites = calls.filter((c) => c.command === 'UpdateItemCommand' && String(c.pk).startsWith('count#'));
    expect(counterWrites.map((c) => c.pk)).toEqual(['count#valued:status']);
    expect(await counterOf('count#valued:status')).toMatchObject({ 'status=1': 1, 'status=3': 3 });
    await expectCountsRight();
  });

  it("are recounted by the repair, which deletes the older layout's per-value items", async () => {
    const table = process.env.TABLE_NAME;
    // The field's item drifted, and an item of the layout before it (one per value) is still there.
    await dynamoClient().send(
      new PutCommand({ TableName: table, Item: { pk: 'count#valued:status', sk: 'count', 'status=2': 40 } }),
    );
    await dynamoClient().send(
      new PutCommand({ TableName: table, Item: { pk: 'count#valued:status=2', sk: 'count', n: 7 } }),
    );
    expect((await repo.list(byStatus(2))).total_count).toBe(40);

    await repo.repair();
    await expectCountsRight();
    expect(await counterOf('count#valued:status=2')).toBeUndefined();
    const left = await dynamoClient().send(
      new ScanCommand({
        TableName: table,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': 'count#valued:status' },
        ConsistentRead: true,
      }),
    );
    expect((left.Items ?? []).map((i) => i.pk)).toEqual(['count#valued:status']);

    // A value whose rows are all gone reads 0 after the repair, in the field's item.
    for (const row of (await repo.all()).filter((r) => r.status === 2)) await repo.remove(row.id);
    await repo.repair();
    expect((await repo.list(byStatus(2))).total_count).toBe(0);
    await expectCountsRight();
  });
});
