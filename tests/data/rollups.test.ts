// Rollup items (functions/lib/db/rollups.ts) on the real local engines: ADDs from many writers at
// once are all counted while the item packs its loose numbers, and a whole write reads back the same.

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import {
  addToRollup,
  definePacking,
  getRollup,
  LOOSE_LIMIT,
  putRollup,
  queryRollupRows,
  queryRollups,
  ROLLUP_PREFIX,
} from '../../functions/lib/db/rollups.js';
import { setupDynamo } from './engine.js';

setupDynamo();

describe('rollup items', () => {
  it('counts every ADD of a burst while the item packs its numbers', async () => {
    const key = { kind: 'test', partition: 'burst', sort: '2026-11-27' };
    // 120 attributes, each added 3 times by 360 writers, 24 at a time.
    const adds = Array.from({ length: 360 }, (_, i) => ({ ...key, add: { [`n${i % 120}`]: 1, total: 1 } }));
    for (let i = 0; i < adds.length; i += 24) await Promise.all(adds.slice(i, i + 24).map((a) => addToRollup(a)));

    const values = await getRollup(key);
    expect(values?.total).toBe(360);
    for (let i = 0; i < 120; i++) expect(values?.[`n${i}`]).toBe(3);
    // Stored: most numbers in one packed string, at most LOOSE_LIMIT loose (+ the ones of the last ADDs).
    const raw = (
      await dynamoClient().send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `${ROLLUP_PREFIX}test#burst`, sk: key.sort } }),
      )
    ).Item!;
    expect(typeof raw.packed).toBe('string');
    const loose = Object.entries(raw).filter(([a, v]) => typeof v === 'number' && a !== '_v');
    expect(loose.length).toBeLessThanOrEqual(LOOSE_LIMIT + 2);
  });

  it('packs a kind by columns: every ADD of a burst counted, most numbers kept by key, a whole write the same', async () => {
    definePacking('testcols', { looseLimit: 8, columns: ['r', 'f'] });
    const key = { kind: 'testcols', partition: 'burst', sort: '2026-11-27' };
    // 40 keys added 3 times each by 120 writers, 12 at a time; every third add a failure too.
    const adds = Array.from({ length: 120 }, (_, i) => ({
      ...key,
      add: { [`r${i % 40}`]: 1, [`f${i % 40}`]: i % 3 === 0 ? 1 : 0, total: 1 },
    }));
    for (let i = 0; i < adds.length; i += 12) await Promise.all(adds.slice(i, i + 12).map((a) => addToRollup(a)));

    const values = await getRollup(key);
    const expected: Record<string, number> = { total: 120 };
    for (const [i, { add }] of adds.entries()) {
      expected[`r${i % 40}`] = (expected[`r${i % 40}`] ?? 0) + 1;
      if (add[`f${i % 40}`]) expected[`f${i % 40}`] = (expected[`f${i % 40}`] ?? 0) + 1;
    }
    expect(values).toEqual(expected);
    const raw = (
      await dynamoClient().send(
        new GetCommand({
          TableName: process.env.TABLE_NAME,
          Key: { pk: `${ROLLUP_PREFIX}testcols#burst`, sk: key.sort },
        }),
      )
    ).Item!;
    // The keys' numbers by key in one string, the one no column holds in the JSON, few left loose.
    expect(raw.cols).toMatch(/^r,f\|\d+:\d*(,\d+)? /);
    expect(raw.cols).not.toContain('r0:');
    const loose = Object.entries(raw).filter(([a, v]) => typeof v === 'number' && a !== '_v');
    expect(loose.length).toBeLessThanOrEqual(8 + 2 * 12);

    const copy = { ...key, sort: 'copy' };
    await putRollup(copy, { ...expected, through: '2026-11-27' });
    expect(await getRollup(copy)).toEqual({ ...expected, through: '2026-11-27' });
    await addToRollup({ ...copy, add: { r7: 2, f39: 1 } });
    expect(await getRollup(copy)).toMatchObject({ r7: expected.r7 + 2, f39: (expected.f39 ?? 0) + 1, total: 120 });

    // Read by key: the same sums, in the columns' order, without the number no column holds.
    const { items } = await queryRollupRows('testcols', 'burst');
    const burst = items.find((i) => i.sort === key.sort)!;
    expect(burst.rows.size).toBe(40);
    for (let k = 0; k < 40; k++) expect(burst.rows.get(String(k))).toEqual([expected[`r${k}`], expected[`f${k}`] ?? 0]);
    expect(items.find((i) => i.sort === 'copy')?.rows.get('7')).toEqual([expected.r7 + 2, expected.f7 ?? 0]);
  });

  it('reads by key an item packed as JSON before its kind was packed by columns', async () => {
    const key = { kind: 'testlater', partition: 'p', sort: 'd' };
    await putRollup(key, { r1: 4, f1: 1, r2: 7, other: 3 });
    definePacking('testlater', { looseLimit: 8, columns: ['r', 'f'] });
    await addToRollup({ ...key, add: { r1: 1, r3: 2 } });
    const { items } = await queryRollupRows('testlater', 'p');
    expect(Object.fromEntries(items[0].rows)).toEqual({ '1': [5, 1], '2': [7, 0], '3': [2, 0] });
    expect(await getRollup(key)).toEqual({ r1: 5, f1: 1, r2: 7, r3: 2, other: 3 });
  });

  it('reads a whole write back with its strings as set and its numbers summed with later ADDs', async () => {
    const key = { kind: 'test', partition: 'whole', sort: 'a' };
    await putRollup(key, { through: '2026-11-27', c11r: 5, c11l: '100:1764000000000' });
    await addToRollup({ ...key, add: { c11r: 2 }, set: { c11l: '99:1764000001000' } });
    const { items, rcu } = await queryRollups('test', 'whole');
    expect(items).toEqual([{ sort: 'a', values: { through: '2026-11-27', c11r: 7, c11l: '99:1764000001000' } }]);
    expect(rcu).toBeGreaterThan(0);
  });

  it('writes an ADD under a condition only while the item holds it', async () => {
    const key = { kind: 'test', partition: 'cond', sort: 'a' };
    await putRollup(key, { through: '2026-11-26', r: 1 });
    await expect(addToRollup({ ...key, add: { r: 1 } }, { expect: { through: '2026-11-27' } })).rejects.toThrow(
      'the rollup item is not as expected',
    );
    await addToRollup({ ...key, add: { r: 1 } }, { expect: { through: '2026-11-26' } });
    expect((await getRollup(key))?.r).toBe(2);
  });
});
