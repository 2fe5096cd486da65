// The data repair resumes: cut after one entity type (its invocation running out of time), the
// next invocation goes on from its progress record, and every counter ends equal to its rows.

import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { defineEntity } from '../../functions/lib/db/entity.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { repairProgress, runRepair, STOP_MARGIN_MS } from '../../functions/data/repairProgress.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { setupDynamo } from './engine.js';
import { type Sample, sampleDef, sampleRow } from './sampleEntity.js';

setupDynamo();

const repoOf = (type: string) => createRepository(defineEntity<Sample>({ ...sampleDef, type }));
const types = ['resume-a', 'resume-b', 'resume-c'];

/** Every count of the type's counter items reads 999, as after a lost stream batch. */
async function drift(type: string) {
  const counters = await dynamoClient().send(
    new ScanCommand({
      TableName: process.env.TABLE_NAME,
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': `count#${type}` },
    }),
  );
  expect(counters.Items?.length).toBeGreaterThan(0);
  for (const c of counters.Items ?? []) {
    const item = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, k === 'pk' || k === 'sk' ? v : 999]));
    await dynamoClient().send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: item }));
  }
}

/** The total a list answers, overall and under each parent, against the rows themselves. */
async function totals(type: string) {
  const repo = repoOf(type);
  const rows = await repo.all();
  const q = emptyListQuery({ page_size: 5 });
  const parents = [...new Set(rows.map((r) => r.task_id))];
  return {
    rows: rows.length,
    total: (await repo.list(q)).total_count,
    children: await Promise.all(
      parents.map(async (task_id) => ({
        rows: rows.filter((r) => r.task_id === task_id).length,
        total: (await repo.list(q, { scope: { task_id: task_id as number } })).total_count,
      })),
    ),
  };
}

const countsRight = (t: Awaited<ReturnType<typeof totals>>) =>
  t.total === t.rows && t.children.every((c) => c.total === c.rows);

describe('the data repair', () => {
  it('cut after one type, resumes on the next invocation and finishes with counters equal to the rows', async () => {
    for (const [n, type] of types.entries()) {
      await repoOf(type).createMany(
        Array.from({ length: 4 + n }, (_, i) => ({ ...sampleRow(i), task_id: 1 + (i % 2) })),
      );
      await drift(type);
    }
    const steps = types.map((type) => ({ name: `type:${type}`, run: () => repoOf(type).repair() }));
    for (const type of types) expect(countsRight(await totals(type))).toBe(false);

    // A controlled clock: each step "takes" 10 s, and the invocation has time for one step only.
    let clock = 1_000_000;
    const now = () => clock;
    const timed = steps.map((s) => ({
      ...s,
      run: async () => {
        clock += 10_000;
        return s.run();
      },
    }));
    /** The steps, each noting its name in `ran` when it runs. */
    const noted = (ran: string[]) =>
      timed.map((s) => ({
        ...s,
        run: () => {
          ran.push(s.name);
          return s.run();
        },
      }));
    let left = 10_000 + STOP_MARGIN_MS + 5_000;
    const first = await runRepair({ steps: timed, now, timeLeft: () => left - (clock - 1_000_000) });
    expect(first).toMatchObject({ status: 'paused', done: 1, left: 2 });
    expect(countsRight(await totals('resume-a'))).toBe(true);
    expect(countsRight(await totals('resume-b'))).toBe(false);
    const saved = await repairProgress().get('', { consistent: true });
    expect(saved).toMatchObject({ run: first.run, done: ['type:resume-a'], invocations: 1, longest_step_ms: 10_000 });
    expect(saved?.paused_at).toBeDefined();
    expect(saved?.finished_at).toBeUndefined();

    // The next invocation has plenty: it skips the done type and finishes the run it resumed.
    const ran: string[] = [];
    left = Number.POSITIVE_INFINITY;
    const second = await runRepair({
      steps: noted(ran),
      now,
      timeLeft: () => left,
    });
    expect(second).toEqual({ status: 'finished', run: first.run, done: 3 });
    expect(ran).toEqual(['type:resume-b', 'type:resume-c']);
    for (const type of types) expect(countsRight(await totals(type)), type).toBe(true);
    expect(await repairProgress().get('', { consistent: true })).toMatchObject({ invocations: 2, finished_at: clock });

    // A finished run is not resumed: the next invocation starts over with every step.
    ran.length = 0;
    clock += 1;
    const third = await runRepair({
      steps: noted(ran),
      now,
      timeLeft: () => left,
    });
    expect(third.run).not.toBe(first.run);
    expect(ran).toHaveLength(3);
  });

  it('stops before its first step when the invocation has too little time, and saves that it paused', async () => {
    const out = await runRepair({
      steps: [{ name: 'never', run: () => Promise.reject(new Error('must not run')) }],
      timeLeft: () => STOP_MARGIN_MS - 1,
      restart: true,
    });
    expect(out).toMatchObject({ status: 'paused', done: 0, left: 1 });
  });
});
