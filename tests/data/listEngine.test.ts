import { beforeAll, describe, expect, it } from 'vitest';
import { emptyListQuery, type Filter, type ListQuery, matchesFilter } from '../../shared/listQuery.js';
import { planListQuery } from '../../functions/lib/db/listEngine.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { setupDynamo } from './engine.js';
import { BASE, type Sample, sampleDef, sampleRow } from './sampleEntity.js';

setupDynamo();
const repo = createRepository(sampleDef);
const ROWS = 24;
const fixture: Sample[] = [];

beforeAll(async () => {
  // Sequential, so id order is creation order like in production.
  for (let i = 0; i < ROWS; i++) fixture.push(await repo.create(sampleRow(i)));
  const gone = await repo.create(sampleRow(3));
  await repo.softDelete(gone.id);
});

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const newestFirst = (rows: Sample[]) => ids([...rows].sort((a, b) => b.created_at - a.created_at));
const q = (overrides: Partial<ListQuery>) => emptyListQuery({ page_size: 0, ...overrides });

describe('list engine', () => {
  it('lists newest first by default, with total_count and the page echoed', async () => {
    const out = await repo.list(emptyListQuery({ page_size: 10 }));
    expect(out).toMatchObject({ page: 1, page_size: 10, total_count: ROWS });
    expect(ids(out.result)).toEqual(newestFirst(fixture).slice(0, 10));
    expect(out.consumed_rcu).toBeGreaterThan(0);
  });

  it('returns the second page and an empty page past the end', async () => {
    const second = await repo.list(emptyListQuery({ page: 2, page_size: 10 }));
    expect(ids(second.result)).toEqual(newestFirst(fixture).slice(10, 20));
    const third = await repo.list(emptyListQuery({ page: 3, page_size: 10 }));
    expect(ids(third.result)).toEqual(newestFirst(fixture).slice(20));
    const beyond = await repo.list(emptyListQuery({ page: 9, page_size: 10 }));
    expect(beyond).toMatchObject({ result: [], total_count: ROWS });
  });

  it('returns every row when page_size is 0', async () => {
    const out = await repo.list(emptyListQuery({ page_size: 0 }));
    expect(ids(out.result)).toEqual(newestFirst(fixture));
    expect(out.total_count).toBe(ROWS);
  });

  it('sorts by created_at and id in both directions', async () => {
    const oldest = newestFirst(fixture).reverse();
    expect(ids((await repo.list(q({ sort: [{ field: 'created_at', order: 'asc' }] }))).result)).toEqual(oldest);
    expect(ids((await repo.list(q({ sort: [{ field: 'id', order: 'asc' }] }))).result)).toEqual(oldest);
    expect(ids((await repo.list(q({ sort: [{ field: 'id', order: 'desc' }] }))).result)).toEqual(oldest.reverse());
  });

  it.each([
    ['score', 'asc'],
    ['score', 'desc'],
    ['status', 'desc'],
    ['name', 'asc'],
  ] as const)('sorts by the non-key field %s %s, ties by id, and pages the sorted rows', async (field, order) => {
    // Text sorts the way people read it: case-insensitive, digits by value ('Site 4' before 'Site 12').
    const expected = [...fixture].sort((a, b) => {
      const x: string | number = a[field];
      const y: string | number = b[field];
      const c =
        typeof x === 'string' && typeof y === 'string'
          ? x.localeCompare(y, 'en', { numeric: true, sensitivity: 'base' })
          : Number(x) - Number(y);
      return (order === 'asc' ? c : -c) || a.id - b.id;
    });
    const out = await repo.list(emptyListQuery({ page: 2, page_size: 5, sort: [{ field, order }] }));
    expect(ids(out.result)).toEqual(ids(expected).slice(5, 10));
    expect(out.total_count).toBe(ROWS);
  });

  const filterCases: [string, string, Filter][] = [
    ['a text filter, case-insensitively', 'name', { kind: 'text', value: 'BRAVO' }],
    ['a boolean filter (true)', 'enable', { kind: 'boolean', value: true }],
    ['a boolean filter (false)', 'enable', { kind: 'boolean', value: false }],
    ['an enum filter', 'status', { kind: 'enum', values: [1, 3] }],
    ['a number >= filter', 'score', { kind: 'number', op: '>=', value: 0 }],
    ['a number != filter', 'score', { kind: 'number', op: '!=', value: 30 }],
    ['a number < filter', 'score', { kind: 'number', op: '<', value: -20 }],
    ['a closed range', 'seen_at', { kind: 'range', start: BASE + 2000, end: BASE + 5000 }],
    ['a range open at the end', 'seen_at', { kind: 'range', start: BASE + 9000 }],
    ['a range open at the start', 'seen_at', { kind: 'range', end: BASE + 1000 }],
    ['a created_at range (key condition)', 'created_at', { kind: 'range', start: BASE + 3000, end: BASE + 7000 }],
    ['a created_at range open at the start', 'created_at', { kind: 'range', end: BASE + 2000 }],
    ['a parent equality (served by byParent)', 'task_id', { kind: 'number', op: '=', value: 2 }],
    ['a second-parent enum (served by byParent2)', 'subtask_id', { kind: 'enum', values: [103] }],
  ];
  it.each(filterCases)('applies %s with the right rows and total_count', async (_, field, filter) => {
    const expected = fixture.filter((r) => matchesFilter(r[field as keyof Sample], filter));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(ROWS);

    const page = await repo.list(emptyListQuery({ page_size: 3, filters: { [field]: filter } }));
    expect(page.total_count).toBe(expected.length);
    expect(ids(page.result)).toEqual(newestFirst(expected).slice(0, 3));
  });

  it('combines filters, keyword and scope', async () => {
    const out = await repo.list(
      q({
        filters: { enable: { kind: 'boolean', value: true }, score: { kind: 'number', op: '>', value: -40 } },
        keyword: 'site',
        keywordField: ['name'],
      }),
      { scope: { task_id: 1 } },
    );
    const expected = fixture.filter((r) => r.enable && r.score > -40 && r.task_id === 1);
    expect(ids(out.result)).toEqual(newestFirst(expected));
  });

  it('searches a keyword case-insensitively across the chosen fields', async () => {
    const search = async (keyword: string, keywordField: string[]) =>
      ids((await repo.list(q({ keyword, keywordField }))).result);
    const match = (text: string, fields: (keyof Sample)[]) =>
      newestFirst(
        fixture.filter((r) =>
          fields.some((f) =>
            String(r[f] ?? '')
              .toLowerCase()
              .includes(text),
          ),
        ),
      );

    expect(await search('REVIEW', ['note'])).toEqual(match('review', ['note']));
    expect(await search('review', ['name'])).toEqual([]);
    expect(await search('alpha', ['name', 'note'])).toEqual(match('alpha', ['name']));
    expect(await search('sItE 1', ['name'])).toEqual(match('site 1', ['name']));
  });

  it('scopes to a parent through its index and never shows soft-deleted rows', async () => {
    const plan = planListQuery(sampleDef, q({}), { scope: { task_id: 1 } });
    expect(plan.index).toBe('byParent');
    const out = await repo.list(q({}), { scope: { task_id: 1 } });
    expect(ids(out.result)).toEqual(newestFirst(fixture.filter((r) => r.task_id === 1)));
    expect(out.total_count).toBe(12);
    expect(await repo.all({ scope: { subtask_id: 103 } })).toEqual(
      fixture.filter((r) => r.subtask_id === 103).map((r) => ({ ...r })),
    );
  });

  it('answers an inverted created_at range with no rows', async () => {
    const out = await repo.list(q({ filters: { created_at: { kind: 'range', start: BASE + 9000, end: BASE } } }));
    expect(out).toMatchObject({ result: [], total_count: 0 });
  });

  it('refuses to filter, search or sort by a hidden field', async () => {
    await expect(repo.list(q({ filters: { secret: { kind: 'text', value: 'a' } } }))).rejects.toThrow(/secret/);
    await expect(repo.list(q({ keyword: 'abc', keywordField: ['secret'] }))).rejects.toThrow(/secret/);
    await expect(repo.list(q({ sort: [{ field: 'secret', order: 'asc' }] }))).rejects.toThrow(/secret/);
  });

  it('uses key order for created_at/id sorts and memory sort for others', () => {
    expect(planListQuery(sampleDef, q({})).memorySort).toBeUndefined();
    expect(planListQuery(sampleDef, q({ sort: [{ field: 'score', order: 'asc' }] })).memorySort).toHaveLength(1);
    const ranged = planListQuery(sampleDef, q({ filters: { created_at: { kind: 'range', start: 1, end: 2 } } }));
    expect(ranged.keyCondition).toContain('BETWEEN');
    expect(ranged.filter).toBeUndefined();
  });
});
