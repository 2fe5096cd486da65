// Kept counts, cursor paging and bounded answers of the list engine, on the real local engines.

import { GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { listTotalKey } from '../../functions/lib/db/counters.js';
import { CURSOR_PREFIX, forgetProcessCursors } from '../../functions/lib/db/cursors.js';
import { defineEntity } from '../../functions/lib/db/entity.js';
import { sweepExpired } from '../../functions/lib/db/expiry.js';
import { physical } from '../../functions/lib/db/partitions.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { emptyListQuery, type ListQuery, ListQueryError, PAGE_ALL_CAP } from '../../shared/listQuery.js';
import { setupDynamo } from './engine.js';
import { BASE, type Sample, sampleDef, sampleRow } from './sampleEntity.js';

setupDynamo();
const q = (o: Partial<ListQuery> = {}) => emptyListQuery({ page_size: 5, ...o });

// Every contract below holds for each storage layout: one partition per type, day buckets, and
// hour buckets with 3 write shards (rows 5 minutes apart, so a fixture spans several buckets).
const LAYOUTS = [
  { name: 'one partition per type', suffix: '', partitioning: undefined, spacing: 1000 },
  { name: 'day buckets', suffix: '-d', partitioning: { bucket: 'day' as const }, spacing: 1000 },
  {
    name: 'hour buckets x 3 shards',
    suffix: '-h3',
    partitioning: { bucket: 'hour' as const, shards: 3 },
    spacing: 300_000,
  },
];

describe.each(LAYOUTS)('$name', (layout) => {
  const repoOf = (type: string, extra: Partial<typeof sampleDef> = {}) =>
    createRepository(
      defineEntity<Sample>({ ...sampleDef, partitioning: layout.partitioning, ...extra, type: type + layout.suffix }),
    );
  const row = (i: number) => ({ ...sampleRow(i), created_at: BASE + i * layout.spacing });
  /** The page cursors the table holds for a type of this layout. */
  const storedCursors = async (type: string) =>
    (
      await dynamoClient().send(
        new QueryCommand({
          TableName: process.env.TABLE_NAME,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `${CURSOR_PREFIX}${type}${layout.suffix}` },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];

  /** The totals every kept counter answers, against the rows themselves. */
  async function expectCountsRight(repo: ReturnType<typeof repoOf>) {
    const rows = await repo.all();
    const total = async (query: ListQuery, scope?: Record<string, number>) =>
      (await repo.list(query, scope ? { scope } : undefined)).total_count;
    expect(await total(q())).toBe(rows.length);
    expect(await total(q(), { task_id: 1 })).toBe(rows.filter((r) => r.task_id === 1).length);
    expect(await total(q({ filters: { status: { kind: 'enum', values: [2] } } }))).toBe(
      rows.filter((r) => r.status === 2).length,
    );
    expect(await total(q({ filters: { enable: { kind: 'boolean', value: false } } }))).toBe(
      rows.filter((r) => !r.enable).length,
    );
  }

  describe('kept counts', () => {
    it('stay right after concurrent creates, soft deletes, restores, slot moves and removes', async () => {
      const repo = repoOf('kept');
      const made = await Promise.all(Array.from({ length: 24 }, (_, i) => repo.create(row(i))));
      await expectCountsRight(repo);

      // Each row deleted by two writers at once: only the one that deleted it moves the counters.
      const doomed = made.slice(0, 6);
      await Promise.allSettled(doomed.flatMap((r) => [repo.softDelete(r.id), repo.softDelete(r.id)]));
      await expectCountsRight(repo);
      expect((await repo.list(q())).total_count).toBe(18);

      await Promise.allSettled(doomed.slice(0, 3).flatMap((r) => [repo.restore(r.id), repo.restore(r.id)]));
      await Promise.all(made.slice(10, 14).map((r) => repo.update(r.id, { status: 2, enable: !r.enable, task_id: 1 })));
      await repo.remove(made[20].id);
      await expectCountsRight(repo);
      expect((await repo.list(q())).total_count).toBe(20);
    });

    it('stay right when expired rows are swept, and the sweep takes only expired rows', async () => {
      const repo = repoOf('expiring');
      const old = Date.now() - 3600_000 - 60_000;
      await repo.createMany(Array.from({ length: 7 }, (_, i) => ({ ...sampleRow(i), created_at: old + i })));
      await repo.createMany(Array.from({ length: 5 }, (_, i) => ({ ...sampleRow(i), created_at: Date.now() })));
      expect((await repo.list(q())).total_count).toBe(12);

      expect(await sweepExpired(repo.def)).toBe(7);
      expect((await repo.all()).length).toBe(5);
      await expectCountsRight(repo);
      expect(await sweepExpired(repo.def)).toBe(0);
    });

    it('are recomputed by the repair path after they drift', async () => {
      const repo = repoOf('drifted');
      const type = repo.def.type;
      await repo.createMany(Array.from({ length: 9 }, (_, i) => row(i)));
      // Every counter of the type drifts, and (spread layouts) a bucket without rows gets a count.
      const counters = await dynamoClient().send(
        new ScanCommand({
          TableName: process.env.TABLE_NAME,
          FilterExpression: 'begins_with(pk, :p)',
          ExpressionAttributeValues: { ':p': `count#${type}` },
        }),
      );
      const bogus = layout.partitioning
        ? [listTotalKey(physical(type, '2020-01-01T00', 0))].map(({ pk, sk }) => ({ pk, sk, n: 999 }))
        : [];
      // Every count in every item (a spread type's bucket item holds one per base) reads 999.
      const drifted = (counters.Items ?? []).map((c) =>
        Object.fromEntries(Object.entries(c).map(([k, v]) => [k, k === 'pk' || k === 'sk' ? v : 999])),
      );
      for (const item of [...drifted, ...bogus]) {
        await dynamoClient().send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: item }));
      }
      expect((await repo.list(q())).total_count).toBeGreaterThanOrEqual(999);

      const out = await repo.repair();
      expect(out.rows).toBe(9);
      await expectCountsRight(repo);
      for (const { pk, sk } of bogus) {
        const key = { pk, sk };
        expect((await dynamoClient().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: key }))).Item).toBe(
          undefined,
        );
      }
    });
  });

  describe('paging', () => {
    it('never skips or repeats a row while rows are being added', async () => {
      const repo = repoOf('paged');
      const first = await repo.createMany(Array.from({ length: 30 }, (_, i) => row(i)));
      const seen: number[] = [];
      for (let page = 1; page <= 6; page++) {
        const out = await repo.list(q({ page }));
        seen.push(...out.result.map((r) => r.id));
        // Newer rows arrive on top while the user pages down.
        await repo.createMany([{ ...sampleRow(99), created_at: Date.now() + page * 1000 }]);
      }
      const expected = first.map((r) => r.id).sort((a, b) => b - a);
      expect(seen).toEqual(expected);
    });

    it('serves the next page from the cursor: at once in the same process, from the table in another', async () => {
      const repo = repoOf('cursored');
      await repo.createMany(Array.from({ length: 30 }, (_, i) => row(i)));
      const ids = (await repo.all()).map((r) => r.id).reverse();
      const one = await repo.list(q({ page: 1, page_size: 10 }));
      const two = await repo.list(q({ page: 2, page_size: 10 }));
      expect(two.result.map((r) => r.id)).toEqual(ids.slice(10, 20));
      // The same process knew where page 2 starts: it read one page, not two, and no cursor.
      expect(two.consumed_rcu).toBeLessThanOrEqual(one.consumed_rcu);

      // A cold process (another Lambda) finds the cursor page 2 left in the table once written.
      forgetProcessCursors();
      await expect.poll(async () => (await storedCursors('cursored')).length).toBeGreaterThanOrEqual(2);
      const three = await repo.list(q({ page: 3, page_size: 10 }));
      expect(three.result.map((r) => r.id)).toEqual(ids.slice(20, 30));
      expect(three.consumed_rcu).toBeLessThanOrEqual(one.consumed_rcu + 0.5);
    });

    it('lists first the rows of a bucket newer than the newest it last saw, and fills a page across buckets', async () => {
      const repo = repoOf('newer');
      const numbers = (page: { result: Sample[] }) => page.result.map((r) => Number(r.name.split(' ').at(-1)));
      // Old rows (their buckets are months back), then a first page that learns where the newest rows are.
      await repo.createMany(Array.from({ length: 8 }, (_, i) => row(i)));
      expect(numbers(await repo.list(q()))).toEqual([7, 6, 5, 4, 3]);
      // Rows arrive in a bucket between those and today's: they lead the next first page.
      const later = Date.now() - 3 * 86_400_000;
      await repo.createMany([0, 1].map((i) => ({ ...sampleRow(50 + i), created_at: later + i * 1000 })));
      expect(numbers(await repo.list(q()))).toEqual([51, 50, 7, 6, 5]);
      // And today's rows lead them, one page taking rows from three buckets.
      await repo.createMany([{ ...sampleRow(60), created_at: Date.now() }]);
      const page = await repo.list(q());
      expect(numbers(page)).toEqual([60, 51, 50, 7, 6]);
      expect(page.total_count).toBe(11);
      expect(numbers(await repo.list(q({ page: 2 })))).toEqual([5, 4, 3, 2, 1]);
    });

    it('writes a page cursor again only when the page ends elsewhere, not on every refresh of the same page', async () => {
      const repo = repoOf('refreshed');
      await repo.createMany(Array.from({ length: 12 }, (_, i) => row(i)));
      const cursorOfPage2 = async () => (await storedCursors('refreshed')).find((i) => String(i.sk).endsWith('#2'));
      await repo.list(q());
      await expect.poll(cursorOfPage2).toBeDefined();
      const written = await cursorOfPage2();
      // The table's 5 s refresh of an unchanged page: the same cursor, not written again.
      for (let i = 0; i < 3; i++) await repo.list(q());
      await new Promise((r) => setTimeout(r, 300));
      expect(await cursorOfPage2()).toEqual(written);
      // A row arrives on top: page 1 now ends one row earlier, and page 2's cursor moves with it.
      await repo.createMany([{ ...sampleRow(50), created_at: Date.now() }]);
      await repo.list(q());
      await expect.poll(async () => (await cursorOfPage2())?.start).not.toEqual(written?.start);
      const two = await repo.list(q({ page: 2 }));
      expect(two.result).toHaveLength(5);
    });

    it('jumps straight to a page with the same rows as paging there', async () => {
      const repo = repoOf('jumped');
      await repo.createMany(Array.from({ length: 30 }, (_, i) => row(i)));
      const direct = await repoOf('jumped').list(q({ page: 4, page_size: 7 }));
      const all = (await repo.all()).map((r) => r.id).reverse();
      expect(direct.result.map((r) => r.id)).toEqual(all.slice(21, 28));
    });

    it('keeps where a jumped-to page starts, so refreshing it reads that page alone', async () => {
      const repo = repoOf('jumpRefreshed');
      // Page 5 of 10 sits in the front half: it is read from the front (a later page is read from the back).
      await repo.createMany(Array.from({ length: 100 }, (_, i) => row(i)));
      const all = (await repo.all()).map((r) => r.id).reverse();
      const jumped = await repo.list(q({ page: 5, page_size: 10 }));
      expect(jumped.result.map((r) => r.id)).toEqual(all.slice(40, 50));
      // The open table's refresh: the same rows, read from where the page starts, not pages 1-4 again.
      const refreshed = await repo.list(q({ page: 5, page_size: 10 }));
      expect(refreshed.result.map((r) => r.id)).toEqual(all.slice(40, 50));
      // One page's reads against five (a page that straddles buckets or shards costs a query more of each).
      expect(refreshed.consumed_rcu).toBeLessThanOrEqual(jumped.consumed_rcu / 2);
      // Another process finds the start in the table once written.
      forgetProcessCursors();
      await expect
        .poll(async () => (await storedCursors('jumpRefreshed')).some((i) => String(i.sk).endsWith('#5')))
        .toBe(true);
      const cold = await repo.list(q({ page: 5, page_size: 10 }));
      expect(cold.result.map((r) => r.id)).toEqual(all.slice(40, 50));
      expect(cold.consumed_rcu).toBeLessThanOrEqual(refreshed.consumed_rcu + 0.5);
    });

    it('reads a page past the middle from the back: the last page costs what the first does', async () => {
      const repo = repoOf('fromTheBack');
      await repo.createMany(Array.from({ length: 95 }, (_, i) => row(i)));
      const all = (await repo.all()).map((r) => r.id).reverse();
      const page = (n: number, o: Partial<ListQuery> = {}) => repo.list(q({ page: n, page_size: 10, ...o }));
      const first = await page(1);
      // As the table's Last page asks for it (a jump), and as a caller without the hint does.
      for (const jump of [true, false]) {
        const last = await page(10, { jump });
        expect(last.result.map((r) => r.id)).toEqual(all.slice(90, 95));
        expect(last.total_count).toBe(95);
        // The five oldest rows, not the 95 before them (a shard or bucket more costs a query more).
        expect(last.consumed_rcu).toBeLessThanOrEqual(first.consumed_rcu + 1);
      }
      expect((await page(8, { jump: true })).result.map((r) => r.id)).toEqual(all.slice(70, 80));
      // Oldest first, the same arithmetic the other way.
      const oldestFirst = await page(9, { jump: true, sort: [{ field: 'created_at', order: 'asc' }] });
      expect(oldestFirst.result.map((r) => r.id)).toEqual([...all].reverse().slice(80, 90));
      // Past the end: nothing, and the true count.
      expect(await page(12, { jump: true })).toMatchObject({ result: [], total_count: 95 });
    });

    it('returns at most the cap for page_size 0 and the true count', async () => {
      const repo = repoOf('capped');
      await repo.createMany(Array.from({ length: PAGE_ALL_CAP + 5 }, (_, i) => row(i)));
      const out = await repo.list(q({ page_size: 0 }));
      expect(out.result).toHaveLength(PAGE_ALL_CAP);
      expect(out.total_count).toBe(PAGE_ALL_CAP + 5);
    });
  });

  describe('bounded answers', () => {
    it('say when the read budget was reached, and how many rows they searched', async () => {
      const repo = repoOf('budgeted', { readBudget: 10 });
      await repo.createMany(Array.from({ length: 30 }, (_, i) => row(i)));

      const searched = await repo.list(q({ keyword: 'alpha', keywordField: ['name'] }));
      expect(searched).toMatchObject({ total_exact: false, searched: 10 });
      expect(searched.result.every((r) => r.name.startsWith('Alpha'))).toBe(true);

      const sorted = await repo.list(q({ sort: [{ field: 'score', order: 'desc' }] }));
      expect(sorted).toMatchObject({ total_exact: false, searched: 10 });

      // Within the budget the answer is exact and says nothing more.
      const small = await repo.list(q({ keyword: 'alpha', keywordField: ['name'] }), { scope: { subtask_id: 100 } });
      expect(small).not.toHaveProperty('total_exact');
      expect(small.total_count).toBe(3); // rows 0, 12 and 24 of subtask 100 are Alpha
    });

    it('counts a created_at range exactly within the budget, and says so beyond it', async () => {
      const repo = repoOf('ranged', { readBudget: 10 });
      const rows = await repo.createMany(Array.from({ length: 30 }, (_, i) => row(i)));
      const range = (from: number, to: number) =>
        q({ filters: { created_at: { kind: 'range', start: rows[from].created_at, end: rows[to].created_at } } });
      expect(await repo.list(range(3, 8))).toMatchObject({ total_count: 6 });
      if (layout.partitioning?.bucket === 'hour') {
        // Whole buckets count from their kept counters: exact, whatever the budget.
        const whole = await repo.list(
          q({ filters: { created_at: { kind: 'range', start: BASE, end: BASE + 2 * 3600_000 - 1 } } }),
        );
        expect(whole).toMatchObject({ total_count: 24 });
        expect(whole).not.toHaveProperty('total_exact');
        // A range that cuts a bucket of 12 rows counts them, past the budget of 10: it says so.
        expect(await repo.list(range(1, 29))).toMatchObject({ total_exact: false });
        return;
      }
      expect(await repo.list(range(0, 29))).toMatchObject({ total_exact: false, searched: 10 });
    });

    it('keeps a range count, so later calls read only the rows written since and still count them', async () => {
      const repo = repoOf('memo');
      const now = Date.now();
      await repo.createMany(
        Array.from({ length: 300 }, (_, i) => ({ ...sampleRow(i), created_at: now - 900_000 + i * 2000 })),
      );
      // 16 minutes, from the first row to a minute ahead (room for the rows written below): shorter
      // than any bucket, so it holds none whole and every row is counted by reading, whatever the
      // hour (a bucket held whole counts from its kept counter on every call, with nothing to keep).
      const open = q({ filters: { created_at: { kind: 'range', start: now - 900_000, end: now + 60_000 } } });
      const first = await repo.list(open);
      expect(first.total_count).toBe(300);
      const again = await repo.list(open);
      expect(again.total_count).toBe(300);
      expect(again.consumed_rcu).toBeLessThan(first.consumed_rcu / 2);
      await repo.createMany([
        { ...sampleRow(0), created_at: Date.now() },
        { ...sampleRow(1), created_at: Date.now() },
      ]);
      expect((await repo.list(open)).total_count).toBe(302);
      expect((await repo.list(q({ ...open, page: 2 }))).total_count).toBe(302);
    });

    it('refuses a sort, filter or search the declaration does not offer', async () => {
      const repo = repoOf('refusing');
      const refused = (query: ListQuery) => expect(repo.list(query)).rejects.toBeInstanceOf(ListQueryError);
      await refused(q({ sort: [{ field: 'task_id', order: 'asc' }] }));
      await refused(q({ filters: { nope: { kind: 'text', value: 'x' } } }));
      await refused(q({ keyword: 'abc', keywordField: ['score'] }));
    });
  });
});
