// Spread partitions (EntityDef.partitioning): where rows are written, that a page reads only the
// newest bucket(s), and that rows of the older one-partition layout are listed again after the
// repair path. The list and counter contracts themselves run over every layout in counters.test.ts.

import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { ConditionFailedError, defineEntity } from '../../functions/lib/db/entity.js';
import { countExpired } from '../../functions/lib/db/expiry.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import { setupDynamo } from './engine.js';
import { BASE, type Sample, sampleDef, sampleRow } from './sampleEntity.js';

setupDynamo();
const HOUR = 3600_000;
const q = (o: Partial<ListQuery> = {}) => emptyListQuery({ page_size: 5, ...o });
const spreadDef = (type: string) =>
  defineEntity<Sample>({ ...sampleDef, type, partitioning: { bucket: 'hour', shards: 2 } });
const stored = async (type: string, id: number) =>
  (
    await dynamoClient().send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `${type}#${id}`, sk: 'item' } }),
    )
  ).Item ?? {};

describe('spread partitions', () => {
  it('write a row to its bucket and shard in byType and in its enum/boolean slots, not in foreign-id slots', async () => {
    const repo = createRepository(spreadDef('placed'));
    const row = await repo.create({ ...sampleRow(0), created_at: BASE + 5 * HOUR + 60_000 });
    const item = await stored('placed', row.id);
    const shard = row.id % 2;
    expect(item.gsi1pk).toBe(`placed#b=2026-11-01T05#s=${shard}`);
    expect(item.gsi4pk).toBe(`placed:status=1#b=2026-11-01T05#s=${shard}`);
    expect(item.gsi5pk).toBe(`placed:enable=true#b=2026-11-01T05#s=${shard}`);
    expect(item.gsi2pk).toBe('placed:task_id=1');
  });

  it("keep a bucket's counts of every spread base in one item, and the repair deletes the older per-base items", async () => {
    const repo = createRepository(spreadDef('tallied'));
    const created_at = BASE + 2 * HOUR;
    const rows = await Promise.all(
      Array.from({ length: 4 }, (_, i) => repo.create({ ...sampleRow(i), status: 1, enable: i < 3, created_at })),
    );
    const shards = [0, 1].map((s) => rows.filter((r) => r.id % 2 === s).length);
    const counterOf = async (pk: string, sk = '2026-11-01T02') =>
      (await dynamoClient().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk, sk } }))).Item;
    // One item per bucket and shard: the type's count and each slot value's, side by side.
    for (const shard of [0, 1]) {
      const item = await counterOf(`count#tallied#s=${shard}`);
      const enabled = rows.filter((r) => r.id % 2 === shard && r.enable).length;
      expect(item).toMatchObject({ n: shards[shard], 'status=1': shards[shard] });
      expect(Number(item?.['enable=true'] ?? 0)).toBe(enabled);
    }
    expect(await counterOf('count#tallied:status=1#s=0')).toBeUndefined();

    // A counter item of the layout before (one per slot base) is not read, and the repair deletes it.
    await dynamoClient().send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: { pk: 'count#tallied:status=1#s=0', sk: '2026-11-01T02', n: 50 },
      }),
    );
    const status1 = () => repo.list(q({ filters: { status: { kind: 'enum', values: [1] } } }));
    expect((await status1()).total_count).toBe(4);
    await repo.repair();
    expect(await counterOf('count#tallied:status=1#s=0')).toBeUndefined();
    expect((await status1()).total_count).toBe(4);
    expect((await repo.list(q({ filters: { enable: { kind: 'boolean', value: true } } }))).total_count).toBe(3);
  });

  it('read only the newest bucket for a newest-first page', async () => {
    const repo = createRepository(spreadDef('newest'));
    // 10 hours of rows, 6 an hour; a page of 5 is inside the newest hour.
    const rows = await repo.createMany(
      Array.from({ length: 60 }, (_, i) => ({ ...sampleRow(i), created_at: BASE + i * 10 * 60_000 })),
    );
    const page = await repo.list(q());
    expect(page.result.map((r) => r.id)).toEqual(
      rows
        .slice(-5)
        .map((r) => r.id)
        .reverse(),
    );
    expect(page.total_count).toBe(60);
    // Two counter Queries, two 3-row shard Queries of the newest bucket, and nothing of the other nine.
    const one = await repo.list(q(), { scope: { task_id: 1 } }); // an unspread partition, for scale
    expect(page.consumed_rcu).toBeLessThanOrEqual(4 * one.consumed_rcu);
  });

  it('moves a row to its new bucket when its created_at changes, keeping the counts', async () => {
    const repo = createRepository(spreadDef('moved'));
    const [a, b] = await repo.createMany([
      { ...sampleRow(0), created_at: BASE },
      { ...sampleRow(1), created_at: BASE + HOUR },
    ]);
    await repo.update(a.id, { created_at: BASE + 3 * HOUR });
    expect((await stored('moved', a.id)).gsi1pk).toMatch(/^moved#b=2026-11-01T03#s=/);
    expect((await repo.list(q())).result.map((r) => r.id)).toEqual([a.id, b.id]);
    const early = await repo.list(q({ filters: { created_at: { kind: 'range', start: BASE, end: BASE + 2 * HOUR } } }));
    expect(early).toMatchObject({ total_count: 1 });
    expect((await repo.list(q())).total_count).toBe(2);
  });

  it('counts a range holding the current bucket whole from its counter, past the read budget', async () => {
    const repo = createRepository(defineEntity<Sample>({ ...spreadDef('today'), readBudget: 3 }));
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    await repo.createMany(Array.from({ length: 8 }, (_, i) => ({ ...sampleRow(i), created_at: hour + i })));
    // "This hour" ends in the future: still the whole bucket, so its kept count, exact.
    const page = await repo.list(q({ filters: { created_at: { kind: 'range', start: hour, end: hour + HOUR - 1 } } }));
    expect(page.total_count).toBe(8);
    expect(page.total_exact).toBeUndefined();
    expect(page.result).toHaveLength(5);
  });

  it("moves a row between slot partitions from the caller's basis, and refuses a stale basis", async () => {
    const repo = createRepository(spreadDef('based'));
    const row = await repo.create({ ...sampleRow(0), status: 1, created_at: BASE });
    const moved = await repo.update(row.id, { status: 2 }, { basis: row });
    const byStatus = (status: number) => repo.list(q({ filters: { status: { kind: 'enum', values: [status] } } }));
    expect((await byStatus(2)).result.map((r) => r.id)).toEqual([row.id]);
    expect((await byStatus(1)).total_count).toBe(0);
    // `row` still says status 1: placing the row by it would file it under status 1 again.
    await expect(repo.update(row.id, { enable: !row.enable }, { basis: row })).rejects.toThrow(ConditionFailedError);
    expect((await byStatus(2)).total_count).toBe(1);
    expect((await repo.update(row.id, { enable: !row.enable }, { basis: moved })).enable).toBe(!row.enable);
    expect((await byStatus(2)).result.map((r) => r.id)).toEqual([row.id]);
  });

  it('moves the counters of a row the TTL service deleted (stream handler) out of its bucket', async () => {
    const repo = createRepository(spreadDef('streamed'));
    const [row] = await repo.createMany([
      { ...sampleRow(0), created_at: BASE },
      { ...sampleRow(1), created_at: BASE },
    ]);
    const image = await stored('streamed', row.id);
    // What DynamoDB's TTL does: a plain delete that moves no counter; the stream then hands over the image.
    await dynamoClient().send(
      new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: { pk: image.pk, sk: image.sk } }),
    );
    expect((await repo.list(q())).total_count).toBe(2);
    await countExpired(image);
    expect((await repo.list(q())).total_count).toBe(1);
    expect((await repo.list(q({ filters: { status: { kind: 'enum', values: [row.status] } } }))).total_count).toBe(0);
  });

  it('lists rows written under the one-partition layout once the repair path re-indexed them', async () => {
    const before = createRepository(defineEntity<Sample>({ ...sampleDef, type: 'migrated' }));
    const old = await before.createMany(
      Array.from({ length: 12 }, (_, i) => ({ ...sampleRow(i), created_at: BASE + i * 30 * 60_000 })),
    );
    const after = createRepository(spreadDef('migrated'));
    const out = await after.repair();
    expect(out).toMatchObject({ rows: 12, reindexed: 12 });
    const page = await after.list(q({ page_size: 0 }));
    expect(page.result.map((r) => r.id)).toEqual(old.map((r) => r.id).reverse());
    expect(page.total_count).toBe(12);
    expect((await after.list(q({ filters: { status: { kind: 'enum', values: [2] } } }))).total_count).toBe(4);
    // The old whole-type counter is gone, so it is never added to the buckets' counts.
    const whole = await dynamoClient().send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'count#migrated', sk: 'count' } }),
    );
    expect(whole.Item).toBeUndefined();
  });
});
