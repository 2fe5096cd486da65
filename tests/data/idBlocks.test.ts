// Ids reserved a block at a time (EntityDef.idBlock, functions/lib/db/ids.ts): unique across
// writers, rising within each, and one id write per block.

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient, resetClients } from '../../functions/lib/aws/clients.js';
import { defineEntity } from '../../functions/lib/db/entity.js';
import { counterKey } from '../../functions/lib/db/ids.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { setupDynamo } from './engine.js';
import { type Sample, sampleDef, sampleRow } from './sampleEntity.js';

setupDynamo();
const BLOCK = 5;
const repo = createRepository(defineEntity<Sample>({ ...sampleDef, type: 'blocked', idBlock: BLOCK }));
const reserved = async () =>
  (await dynamoClient().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: counterKey('blocked') }))).Item
    ?.seq as number;

describe('ids reserved in blocks', () => {
  it('hand out unique, rising ids to parallel creates with one id write per block', async () => {
    const rows = await Promise.all(Array.from({ length: 12 }, (_, i) => repo.create(sampleRow(i))));
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(12);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // 12 ids from blocks of 5: three reservations, the last block's rest kept for the next creates.
    expect(await reserved()).toBe(15);
    expect((await repo.create(sampleRow(12))).id).toBe(13);
  });

  it('never give two writers the same id: another process reserves the block after this one', async () => {
    const first = await repo.create(sampleRow(20));
    expect(first.id).toBe(14);
    resetClients(); // what another process starts with: none of this one's reserved ids
    const second = await repo.create(sampleRow(21));
    // Id 15 stays with the first writer's block: a gap, never a clash.
    expect(second.id).toBe(16);
    expect(await reserved()).toBe(20);
    const all = await repo.list(emptyListQuery({ page_size: 0 }));
    expect(all.result.map((r) => r.id).sort((a, b) => a - b)).toEqual([
      ...Array.from({ length: 14 }, (_, i) => i + 1),
      16,
    ]);
  });
});
