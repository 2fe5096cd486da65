import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { emptyListQuery } from '../../shared/listQuery.js';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { ConditionFailedError } from '../../functions/lib/db/entity.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { claimUnique, findUniqueOwner, releaseUnique, UniqueTakenError } from '../../functions/lib/db/unique.js';
import { setupDynamo } from './engine.js';
import { sampleDef } from './sampleEntity.js';

setupDynamo();
const repo = createRepository(sampleDef);
const base = { name: 'Site One', enable: true, status: 1, score: 5, task_id: 7 };
const INTERNAL = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', '_lc_name', 'expires_at'];

describe('repository', () => {
  it('creates a row with a fresh numeric id and stamps, and reads it back without storage attributes', async () => {
    const before = Date.now();
    const created = await repo.create({ ...base, secret: 'enc:xyz' });
    const again = await repo.create(base);

    expect(created.id).toBeGreaterThan(0);
    expect(again.id).toBe(created.id + 1);
    expect(created.created_at).toBeGreaterThanOrEqual(before);
    expect(created.updated_at).toBe(created.created_at);
    const read = await repo.get(created.id);
    expect(read).toEqual({ ...base, id: created.id, created_at: created.created_at, updated_at: created.updated_at });
    for (const attr of [...INTERNAL, 'secret']) expect(read).not.toHaveProperty(attr);
    expect((await repo.getWithHidden(created.id))?.secret).toBe('enc:xyz');
  });

  it('sets expires_at from created_at and the ttl so DynamoDB reaps log rows', async () => {
    const row = await repo.create({ ...base, created_at: 1_700_000_000_000 });
    const raw = await dynamoClient().send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `sample#${row.id}`, sk: 'item' } }),
    );
    expect(raw.Item?.expires_at).toBe(1_700_000_000 + 3600);
  });

  it('updates fields, removes undefined ones and returns the new row', async () => {
    const row = await repo.create({ ...base, note: 'old' });
    const updated = await repo.update(row.id, { name: 'Renamed', note: undefined });
    expect(updated).toMatchObject({ id: row.id, name: 'Renamed', created_at: row.created_at });
    expect(updated).not.toHaveProperty('note');
    expect(updated.updated_at).toBeGreaterThanOrEqual(row.updated_at!);
    for (const attr of INTERNAL) expect(updated).not.toHaveProperty(attr);
    expect(await repo.get(row.id)).toEqual(updated);
  });

  it('keeps search shadows and parent keys in step with updates', async () => {
    const row = await repo.create({ ...base, name: 'Zebra Unique', task_id: 900 });
    await repo.update(row.id, { name: 'Yak Unique', task_id: 901 });
    const search = (keyword: string) =>
      repo.list(emptyListQuery({ keyword, keywordField: ['name'] })).then((r) => r.result.map((s) => s.id));

    expect(await search('zebra')).toEqual([]);
    expect(await search('YAK UNI')).toEqual([row.id]);
    expect((await repo.all({ scope: { task_id: 900 } })).map((s) => s.id)).toEqual([]);
    expect((await repo.all({ scope: { task_id: 901 } })).map((s) => s.id)).toEqual([row.id]);
  });

  it('treats missing and soft-deleted rows as absent: get is undefined, writes fail, lists skip them', async () => {
    const row = await repo.create({ ...base, task_id: 555 });
    await repo.softDelete(row.id);

    expect(await repo.get(row.id)).toBeUndefined();
    expect(await repo.getMany([row.id])).toEqual([]);
    await expect(repo.update(row.id, { name: 'x' })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(repo.add(row.id, { hits: 1 })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(repo.softDelete(row.id)).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(repo.update(999_999, { name: 'x' })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await repo.get(999_999)).toBeUndefined();
    const scoped = await repo.list(emptyListQuery(), { scope: { task_id: 555 } });
    expect(scoped).toMatchObject({ result: [], total_count: 0 });
  });

  it('hard-removes a row', async () => {
    const row = await repo.create(base);
    await repo.remove(row.id);
    expect(await repo.get(row.id)).toBeUndefined();
  });

  it('reads many rows in the order asked, skipping unknown ids', async () => {
    const a = await repo.create(base);
    const b = await repo.create(base);
    expect((await repo.getMany([b.id, 123_456, a.id, b.id])).map((s) => s.id)).toEqual([b.id, a.id]);
  });

  it('loses no increment when 50 adds run in parallel', async () => {
    const row = await repo.create({ ...base, hits: 0 });
    await Promise.all(Array.from({ length: 50 }, () => repo.add(row.id, { hits: 1 })));
    expect((await repo.get(row.id))?.hits).toBe(50);
  });

  it('lets exactly one of 20 parallel updates expecting the same old value win', async () => {
    const row = await repo.create({ ...base, status: 1 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => repo.update(row.id, { status: 2, score: i }, { expect: { status: 1 } })),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ConditionFailedError);
    expect((await repo.get(row.id))?.score).toBe((won[0] as PromiseFulfilledResult<{ score: number }>).value.score);
  });

  it('checks that a field is absent when expect names it as undefined', async () => {
    const row = await repo.create(base);
    await repo.update(row.id, { note: 'first' }, { expect: { note: undefined } });
    await expect(repo.update(row.id, { note: 'second' }, { expect: { note: undefined } })).rejects.toBeInstanceOf(
      ConditionFailedError,
    );
  });

  it('runs work alongside a create once the row is stored, and answers when it and the counts are done', async () => {
    const before = (await repo.list(emptyListQuery({ page_size: 1 }), { scope: { task_id: 99 } })).total_count;
    let seen: unknown;
    const created = await repo.create(
      { ...base, task_id: 99 },
      { alongside: async (row) => (seen = await repo.get(row.id)) },
    );
    expect(seen).toEqual(created);
    expect((await repo.list(emptyListQuery({ page_size: 1 }), { scope: { task_id: 99 } })).total_count).toBe(
      before + 1,
    );
    // A failure beside it is the create's failure, after the row and its counts were written.
    const failing = repo.create(
      { ...base, task_id: 99 },
      { alongside: async () => Promise.reject(new Error('queue down')) },
    );
    await expect(failing).rejects.toThrow('queue down');
    expect((await repo.list(emptyListQuery({ page_size: 1 }), { scope: { task_id: 99 } })).total_count).toBe(
      before + 2,
    );
  });

  it('hands out distinct ids to 20 parallel creates', async () => {
    const rows = await Promise.all(Array.from({ length: 20 }, () => repo.create(base)));
    expect(new Set(rows.map((r) => r.id)).size).toBe(20);
  });
});

describe('writing many rows', () => {
  it('creates 60 rows in batches with consecutive fresh ids, readable and listable like single creates', async () => {
    const single = await repo.create(base);
    const rows = await repo.createMany(
      Array.from({ length: 60 }, (_, i) => ({ ...base, name: `Batch ${i}`, task_id: 4242 })),
    );

    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 60 }, (_, i) => single.id + 1 + i));
    expect(await repo.get(rows[59].id)).toMatchObject({ name: 'Batch 59', task_id: 4242 });
    const scoped = await repo.list(emptyListQuery({ page_size: 0 }), { scope: { task_id: 4242 } });
    expect(scoped.total_count).toBe(60);
    const searched = await repo.list(emptyListQuery({ keyword: 'batch 5', keywordField: ['name'], page_size: 0 }), {
      scope: { task_id: 4242 },
    });
    expect(searched.total_count).toBe(11); // Batch 5 and Batch 50..59
  });
});

describe('unique values', () => {
  it('lets exactly one of 20 parallel claims of the same name win, case-insensitively', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => claimUnique('site', 'name', i % 2 ? 'Lucky Site' : 'lucky site ', i + 1)),
    );
    const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i + 1] : []));
    expect(winners).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(UniqueTakenError);
    expect(await findUniqueOwner('site', 'name', 'LUCKY SITE')).toBe(winners[0]);
  });

  it('frees a value only for its owner, after which another owner can claim it', async () => {
    await claimUnique('user', 'username', 'alice', 1);
    await claimUnique('user', 'username', 'alice', 1); // a retry by the owner is fine

    expect(await releaseUnique('user', 'username', 'alice', 2)).toBe(false);
    await expect(claimUnique('user', 'username', 'alice', 2)).rejects.toBeInstanceOf(UniqueTakenError);
    expect(await releaseUnique('user', 'username', 'alice', 1)).toBe(true);
    await claimUnique('user', 'username', 'alice', 2);
    expect(await findUniqueOwner('user', 'username', 'alice')).toBe(2);
    expect(await findUniqueOwner('user', 'username', 'nobody')).toBeUndefined();
  });
});
