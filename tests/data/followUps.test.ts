import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { ConditionFailedError } from '../../functions/lib/db/entity.js';
import { runToCrash, writeSequence } from '../../functions/lib/db/faults.js';
import { nextId } from '../../functions/lib/db/ids.js';
import { defineFollowUp, sweepFollowUps, together } from '../../functions/lib/db/outbox.js';
import { OUTBOX_INDEX } from '../../functions/lib/db/tableSchema.js';
import { transition } from '../../functions/lib/db/transition.js';
import { setupDynamo } from './engine.js';
import { base, bump, childMovedWith, pendingOf, repo } from './followUpRig.js';
import type { Sample } from './sampleEntity.js';

// The follow-up mechanism (functions/lib/db/outbox.ts) on the engine under test: a transition
// records its follow-ups in its own write, they are applied once in effect whatever dies in
// between, and the sweeper finishes what a writer left.

setupDynamo();

let flaky = 0;
const failsOnce = defineFollowUp('test.fails_once', async () => {
  if (flaky++ === 0) throw new Error('the step failed this time');
});

/** A step that waits until `release` is called: what runs while it waits shows what did not wait for it. */
const gates = new Map<string, { opened: Promise<void>; release: () => void; entered: number }>();
const gate = (name: string) => {
  let release = () => {};
  const opened = new Promise<void>((r) => {
    release = r;
  });
  const g = { opened, release, entered: 0 };
  gates.set(name, g);
  return g;
};
const waitsFor = defineFollowUp('test.waits_for', async ({ gate: name }: { gate: string }) => {
  const g = gates.get(name);
  if (!g) return;
  g.entered++;
  await g.opened;
});
/** Resolves once `check` holds (checked every 10 ms), or rejects after 5 s. */
const until = async (check: () => boolean | Promise<boolean>) => {
  for (const t0 = Date.now(); !(await check()); ) {
    if (Date.now() - t0 > 5000) throw new Error('the condition never held');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const indexed = async () =>
  (
    await dynamoClient().send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME,
        IndexName: OUTBOX_INDEX.name,
        KeyConditionExpression: '#p = :p',
        ExpressionAttributeNames: { '#p': OUTBOX_INDEX.partitionKey },
        ExpressionAttributeValues: { ':p': 'outbox' },
      }),
    )
  ).Items?.map((i) => i.pk as string) ?? [];

describe('follow-ups', () => {
  it('are applied before the transition answers, then cleared, leaving no trace on the row or in the index', async () => {
    const parent = await repo.create(base);
    const child = await repo.create({ ...base, status: 1 });
    await transition(
      repo,
      child.id,
      { status: 2 },
      { expect: { status: 1 }, followUps: [bump({ id: parent.id, cause: 'c1' })] },
    );

    expect((await repo.get(parent.id))?.hits).toBe(1);
    expect(await pendingOf(child.id)).toEqual([]);
    expect(await indexed()).not.toContain(`sample#${child.id}`);
    const row = await repo.get(child.id);
    expect(Object.keys(row ?? {}).filter((k) => k.startsWith('_ob'))).toEqual([]);
  });

  it('are not recorded when the transition loses its condition', async () => {
    const parent = await repo.create(base);
    const child = await repo.create({ ...base, status: 2 });
    await expect(
      transition(
        repo,
        child.id,
        { status: 3 },
        { expect: { status: 1 }, followUps: [bump({ id: parent.id, cause: 'lost' })] },
      ),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    expect((await repo.get(parent.id))?.hits).toBeUndefined();
    expect(await pendingOf(child.id)).toEqual([]);
  });

  it('count a cause once, however often they are applied', async () => {
    const parent = await repo.create(base);
    await Promise.all([1, 2, 3].map(() => bump.apply({ id: parent.id, cause: 'same' })));
    await bump.apply({ id: parent.id, cause: 'other' });
    expect((await repo.get(parent.id))?.hits).toBe(2);
    expect((await repo.getCounted(parent.id))?.causes.sort()).toEqual(['other', 'same']);
  });

  it('forget a cause on request: the row keeps the others and its count, and counts that cause again', async () => {
    const parent = await repo.create(base);
    await bump.apply({ id: parent.id, cause: 'kept' });
    await bump.apply({ id: parent.id, cause: 'settled' });
    await repo.forgetCause(parent.id, 'settled');
    await repo.forgetCause(parent.id, 'settled');
    expect(await repo.getCounted(parent.id)).toMatchObject({ row: { hits: 2 }, causes: ['kept'] });
    // Its caller must hold another mark now: the guard no longer stops a second count.
    await bump.apply({ id: parent.id, cause: 'settled' });
    expect((await repo.get(parent.id))?.hits).toBe(3);
    await expect(repo.forgetCause(987_654_321, 'kept')).rejects.toBeInstanceOf(ConditionFailedError);
  });

  it('stay on the row when a step fails, and the sweeper applies them later, in order, once', async () => {
    flaky = 0;
    const { parent, child } = await childMovedWith((id) => [
      bump({ id, cause: 'a' }),
      failsOnce({}),
      bump({ id, cause: 'b' }),
    ]);
    // The first step happened; the failed one and the one after it wait for the sweeper.
    expect((await repo.get(parent.id))?.hits).toBe(1);
    expect(await pendingOf(child.id)).toHaveLength(1);
    expect(await indexed()).toContain(`sample#${child.id}`);

    // Not yet stale: a sweep with the default age leaves a fresh entry to its writer.
    expect((await sweepFollowUps({ before: Date.now() - 60_000 })).applied).toBe(0);
    await sweepFollowUps({ before: Date.now() + 1 });
    expect((await repo.get(parent.id))?.hits).toBe(2);
    expect(await pendingOf(child.id)).toEqual([]);
    expect(await indexed()).not.toContain(`sample#${child.id}`);
  });

  it('of a group run at once: a step waiting in it holds neither its siblings nor anything but the steps after the group', async () => {
    const parent = await repo.create(base);
    const child = await repo.create(base);
    const g = gate('group');
    const updating = transition(
      repo,
      child.id,
      { status: 2 },
      {
        followUps: [
          together([waitsFor({ gate: 'group' }), bump({ id: parent.id, cause: 'sibling' })])!,
          bump({ id: parent.id, cause: 'after' }),
        ],
      },
    );
    try {
      // The sibling was applied while the first step of its group still waits; the step after the group was not.
      await until(async () => (await repo.get(parent.id))?.hits === 1);
      expect(g.entered).toBe(1);
    } finally {
      g.release();
      await updating;
    }
    expect((await repo.get(parent.id))?.hits).toBe(2);
    expect(await pendingOf(child.id)).toEqual([]);
  });

  it('of a group with a failed step stay pending, and the sweeper applies the whole group again, each step once', async () => {
    flaky = 0;
    const { parent, child } = await childMovedWith((id) => [
      together([bump({ id, cause: 'g1' }), failsOnce({})])!,
      bump({ id, cause: 'g2' }),
    ]);
    // The sibling of the failed step counted; the step after the group waits with it.
    expect((await repo.get(parent.id))?.hits).toBe(1);
    expect(await pendingOf(child.id)).toHaveLength(1);
    await sweepFollowUps({ before: Date.now() + 1 });
    expect((await repo.get(parent.id))?.hits).toBe(2);
    expect(await pendingOf(child.id)).toEqual([]);
  });

  it('go beside the caller on request: the transition answers once written, and the promise it hands over settles once they are applied', async () => {
    const parent = await repo.create(base);
    const child = await repo.create({ ...base, status: 1 });
    const g = gate('beside');
    let rest: Promise<void> | undefined;
    // Released after 5 s at the latest, so a transition that waited for its steps fails the test, not hangs it.
    const fallback = setTimeout(g.release, 5000);
    const row = await transition(
      repo,
      child.id,
      { status: 2 },
      {
        expect: { status: 1 },
        followUps: [waitsFor({ gate: 'beside' }), bump({ id: parent.id, cause: 'beside' })],
        beside: (r) => {
          rest = r;
        },
      },
    );
    try {
      // Answered with the row written while its first step still waits: nothing applied, the entry pending.
      expect(row.status).toBe(2);
      expect((await repo.get(child.id))?.status).toBe(2);
      await until(() => g.entered === 1);
      expect((await repo.get(parent.id))?.hits).toBeUndefined();
      expect(await pendingOf(child.id)).toHaveLength(1);
    } finally {
      clearTimeout(fallback);
      g.release();
    }
    await rest;
    expect((await repo.get(parent.id))?.hits).toBe(1);
    expect(await pendingOf(child.id)).toEqual([]);
  });

  it('survive a crash at every write of the transition and its steps: recovery completes them, once', async () => {
    for (let n = 1; ; n++) {
      const parent = await repo.create(base);
      const child = await repo.create(base);
      const { crashed } = await runToCrash({ sequence: 'test', afterWrites: n }, () =>
        writeSequence('test', () =>
          transition(
            repo,
            child.id,
            { status: 2 },
            {
              expect: { status: 1 },
              followUps: [bump({ id: parent.id, cause: 'x' }), bump({ id: parent.id, cause: 'y' })],
            },
          ),
        ),
      );
      await sweepFollowUps({ before: Date.now() + 1 });
      const moved = (await repo.get(child.id))?.status === 2;
      // Either the transition happened with both follow-ups, or (a crash before its write) nothing did.
      expect({ n, hits: (await repo.get(parent.id))?.hits ?? 0 }).toEqual({ n, hits: moved ? 2 : 0 });
      expect(await pendingOf(child.id)).toEqual([]);
      if (!crashed) {
        expect(n).toBeGreaterThan(3);
        break;
      }
    }
    expect(await indexed()).toEqual([]);
  });

  it('ride on a new row too: written by its PutItem, applied once, and swept after a crash at any write', async () => {
    for (let n = 1; ; n++) {
      const parent = await repo.create(base);
      let childId: number | undefined;
      const { crashed } = await runToCrash({ sequence: 'create', afterWrites: n }, () =>
        writeSequence('create', async () => {
          childId = await nextId('sample');
          await repo.create(base, { id: childId, followUps: [bump({ id: parent.id, cause: `new:${childId}` })] });
        }),
      );
      await sweepFollowUps({ before: Date.now() + 1 });
      const stored = childId !== undefined && (await repo.get(childId)) !== undefined;
      expect({ n, hits: (await repo.get(parent.id))?.hits ?? 0 }).toEqual({ n, hits: stored ? 1 : 0 });
      if (stored) expect(await pendingOf(childId as number)).toEqual([]);
      if (!crashed) break;
    }
  });

  it('are kept when the counters repair rewrites a row of an older layout', async () => {
    const parent = await repo.create(base);
    const child = await repo.create(base);
    flaky = 0;
    await transition(
      repo,
      child.id,
      { status: 2 },
      { followUps: [failsOnce({}), bump({ id: parent.id, cause: 'kept' })] },
    );
    await repo.repair();
    expect(await pendingOf(child.id)).toHaveLength(1);
    await sweepFollowUps({ before: Date.now() + 1 });
    expect((await repo.get(parent.id))?.hits).toBe(1);
  });

  it('let a repair set guarded counters whole, and refuse the repair when a cause was counted since it read', async () => {
    const parent = await repo.create(base);
    await bump.apply({ id: parent.id, cause: 'one' });
    const read = await repo.getCounted(parent.id);
    expect(read).toMatchObject({ row: { hits: 1 }, causes: ['one'] });
    // A count lands between the repair's read and its write: the repair must not overwrite it.
    await bump.apply({ id: parent.id, cause: 'two' });
    await expect(
      repo.update(parent.id, { hits: 5 } as Partial<Sample>, { causes: { add: ['three'], seen: read!.causes.length } }),
    ).rejects.toBeInstanceOf(ConditionFailedError);

    const again = await repo.getCounted(parent.id);
    await repo.update(parent.id, { hits: 3 } as Partial<Sample>, {
      causes: { add: ['three'], seen: again!.causes.length },
    });
    // The cause the repair counted is refused when its own follow-up arrives late.
    await bump.apply({ id: parent.id, cause: 'three' });
    expect((await repo.get(parent.id))?.hits).toBe(3);
  });
});
