// Lists over an index that copies less than the whole row (tableSchema.ts projections, issue 44): the
// subtask's status slot carries its list attributes alone, a list reads whole rows all the same, a
// field its index does not carry is refused rather than matched as missing, and internal reads
// (`repo.all`) act on whole rows.

import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { subtaskEntity } from '../../functions/checks/store.js';
import { config } from '../../functions/lib/config.js';
import { defineEntity } from '../../functions/lib/db/entity.js';
import { planListQuery, UncarriedAttributeError } from '../../functions/lib/db/listEngine.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { createTableInput, RETIRED_INDEXES } from '../../functions/lib/db/tableSchema.js';
import { dropTable, ensureTable } from '../../scripts/local/engines/dynamo.js';
import { Process, RunStatus, TestMode } from '../../shared/enums.js';
import { field, keyOrderFields } from '../../shared/listFields.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { setupDynamo } from './engine.js';

setupDynamo();

const { Running, Done, Failed } = RunStatus.values;
const subtasks = createRepository(subtaskEntity);

function subtask(i: number, status: number) {
  return {
    task_id: 100 + (i % 2),
    operation_id: 7,
    process: Process.values.Login,
    mode: TestMode.values.D4,
    site_id: 3,
    status,
    msg: i % 2 ? `Login Timeout ${i}` : `ok ${i}`,
    start_at: 1_000 + i,
    end_at: null,
    attempts: 1,
    flaky: false,
    degraded: false,
    duration_ms: 100 * i,
    run_id: `run-${i}`,
  } as never;
}

/** An entity whose sixth key lands on the narrowed index with fields the index does not carry. */
interface Wide {
  id: number;
  created_at: number;
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  status: number;
  colour: string;
  size: number;
}
const wideDef = defineEntity<Wide>({
  type: 'wide_sample',
  fields: {
    ...keyOrderFields,
    a: field.number({ filter: 'key' }),
    b: field.number({ filter: 'key' }),
    c: field.number({ filter: 'key' }),
    d: field.number({ filter: 'key' }),
    e: field.number({ filter: 'key' }),
    status: field.enum(RunStatus, { filter: 'key' }),
    colour: field.text({ filter: 'bounded', search: true }),
    size: field.number({ sort: 'bounded' }),
  },
  keys: ['a', 'b', 'c', 'd', 'e', 'status'],
});
const wide = createRepository(wideDef);

describe('an index that carries a list’s attributes, not the whole row', () => {
  it('copies the subtask’s list attributes into its status slot, never its run id, rollup mark or other keys', async () => {
    const stored = await subtasks.create(subtask(1, Running));
    await subtasks.update(stored.id, { rolled_up_at: 5 } as never);
    const out = await dynamoClient().send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: 'byKey6Include',
        KeyConditionExpression: 'gsi7pk = :p',
        ExpressionAttributeValues: { ':p': `subtask:status=${Running}` },
      }),
    );
    const [copy] = out.Items ?? [];
    expect(copy).toMatchObject({ id: stored.id, status: Running, msg: 'Login Timeout 1', _lc_msg: 'login timeout 1' });
    expect(copy.run_id).toBeUndefined();
    expect(copy.rolled_up_at).toBeUndefined();
    // Keys of the other indexes are not copied either: ~0.3 KB a copy.
    expect(copy.gsi2pk).toBeUndefined();
  });

  it('lists subtasks by status from that index with every field a list shows, filters and search included', async () => {
    for (let i = 2; i <= 6; i++) await subtasks.create(subtask(i, i % 3 ? Done : Failed));
    const query = emptyListQuery({
      page_size: 10,
      filters: { status: { kind: 'enum', values: [Done] }, duration_ms: { kind: 'number', op: '>', value: 150 } },
      keyword: 'timeout',
    });
    expect(planListQuery(subtaskEntity, query)).toMatchObject({ index: 'byKey6Include', fetch: false });
    const out = await subtasks.list(query);
    // Done: 2, 4, 5; over 150 ms: 2, 4, 5; 'timeout' in the message: 5.
    expect(out.result.map((r) => r.id)).toHaveLength(1);
    expect(out.result[0]).toMatchObject({ msg: 'Login Timeout 5', duration_ms: 500, task_id: 101, operation_id: 7 });
  });

  it('reads whole rows for the engine’s own reads through that index (hidden and stored-only fields too)', async () => {
    const rows = await subtasks.allWithHidden({ scope: { status: Done } });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect((r as unknown as { run_id: string }).run_id).toMatch(/^run-/);
    // The hidden rollup mark the index does not copy: read from the row itself.
    const [running] = await subtasks.allWithHidden({ scope: { status: Running } });
    expect(running.rolled_up_at).toBe(5);
  });

  it('refuses a filter, search or sort on a field the index does not carry, naming it', async () => {
    await wide.create({ a: 1, b: 1, c: 1, d: 1, e: 1, status: Done, colour: 'Red', size: 3 });
    const onStatus = { status: { kind: 'enum' as const, values: [Done] } };
    const refused = [
      emptyListQuery({ filters: { ...onStatus, colour: { kind: 'text', value: 'red' } } }),
      emptyListQuery({ filters: onStatus, keyword: 'red' }),
      emptyListQuery({ filters: onStatus, sort: [{ field: 'size', order: 'asc' }] }),
    ];
    for (const query of refused) {
      await expect(wide.list(query)).rejects.toThrow(UncarriedAttributeError);
      await expect(wide.list(query)).rejects.toThrow(
        /wide_sample: a list on byKey6Include reads (_lc_colour|colour|size)/,
      );
    }
    // Through an index that copies everything, the same filter is served.
    const whole = await wide.list(
      emptyListQuery({ filters: { a: { kind: 'number', op: '=', value: 1 }, colour: { kind: 'text', value: 'red' } } }),
    );
    expect(whole.result).toHaveLength(1);
  });

  it('reads a page’s rows back from the table when the index does not show every field, and counts their units', async () => {
    const query = emptyListQuery({ page_size: 10, filters: { status: { kind: 'enum', values: [Done] } } });
    expect(planListQuery(wideDef, query)).toMatchObject({ index: 'byKey6Include', fetch: true });
    const out = await wide.list(query);
    expect(out.result).toEqual([expect.objectContaining({ colour: 'Red', size: 3, a: 1 })]);
    expect(out.total_count).toBe(1);
    expect(out.consumed_rcu).toBeGreaterThanOrEqual(1);
  });
});

describe('a table of an older DATA_DIR (its sixth slot copying whole rows, under the old name)', () => {
  it('gains the narrowed index at start, filled from its rows, and lists by status through it', async () => {
    const own = process.env.TABLE_NAME as string;
    const old = `${own}-old`;
    const endpoint = process.env.DYNAMO_ENDPOINT as string;
    // The table as an older start created it: byKey6 (ALL) where byKey6Include is now.
    const input = createTableInput(old);
    const [retired] = RETIRED_INDEXES;
    const client = new DynamoDBClient({ endpoint, region: 'us-east-1' });
    await client.send(
      new CreateTableCommand({
        ...input,
        GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.map((i) =>
          i.IndexName === 'byKey6Include'
            ? { ...i, IndexName: retired.name, Projection: { ProjectionType: 'ALL' } }
            : i,
        ),
      }),
    );
    client.destroy();
    process.env.TABLE_NAME = old;
    try {
      const row = await subtasks.create(subtask(9, Failed));
      // The start: ensureTable adds the missing index and fills it from the items stored.
      await ensureTable(endpoint, old);
      const out = await subtasks.list(emptyListQuery({ filters: { status: { kind: 'enum', values: [Failed] } } }));
      expect(out.result.map((r) => r.id)).toEqual([row.id]);
      expect(out.total_count).toBe(1);
    } finally {
      process.env.TABLE_NAME = own;
      await dropTable(endpoint, old);
    }
  });
});
