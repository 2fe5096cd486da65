import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { config } from '../../functions/lib/config.js';
import { type LocalStack, startLocalStack } from '../../scripts/local/stack.js';
import { DEMO_RULE, seedDemoRule, seedDemoSites } from '../../scripts/local/demo.js';
import { emptyListQuery } from '../../shared/listQuery.js';

// The local rehearsal of a point-in-time restore (docs/deploy.md "Restore"): the stack stops, a copy
// of its DATA_DIR is taken (the restore point), and a stack started on the copy serves everything
// the original held; the auto-check schedules are re-synced from the restored rules by the
// syncSchedules handler, and the data repair leaves every list total equal to its rows. It prints
// how long the copy, the start and the repair took: the guide's recovery-time figure.

const source = await mkdtemp(join(tmpdir(), 'patrol-restore-src-'));
const restored = await mkdtemp(join(tmpdir(), 'patrol-restore-copy-'));
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.stop();
  await rm(source, { recursive: true, force: true });
  await rm(restored, { recursive: true, force: true });
});

const start = (dataDir: string) => startLocalStack({ dataDir, port: 0, demo: false, quiet: true });

type Item = Record<string, NativeAttributeValue>;
async function scanAll(filter?: (item: Item) => boolean): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const out = await dynamoClient().send(
      new ScanCommand({ TableName: config.tableName, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(out.Items ?? []).filter((i) => !filter || filter(i)));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
/** Every entity row, by its key: what a restore must not lose. */
const rowKeys = async () =>
  (await scanAll((i) => i.sk === 'item' && i.deleted === undefined)).map((i) => `${i.pk}|${i.sk}`).sort();

async function totals() {
  const { listSites } = await import('../../functions/sites/service.js');
  const { listRules } = await import('../../functions/autoCheck/service.js');
  const q = emptyListQuery({ page_size: 5 });
  return { sites: (await listSites(q)).total_count, rules: (await listRules(q)).total_count };
}

describe('a restore rehearsed on the local stack', () => {
  it('serves everything of the restore point, with its schedules re-synced and its counters repaired', async () => {
    stack = await start(source);
    const ids = await seedDemoSites(stack.sandboxSiteUrl ?? 'http://127.0.0.1:9');
    await seedDemoRule(ids);
    const { createRule, updateRule } = await import('../../functions/autoCheck/service.js');
    const { RuleBody } = await import('../../shared/schemas/autoCheck.js');
    const off = await createRule(
      RuleBody.parse({
        name: 'Paused rule',
        sites: [...ids.values()].slice(0, 1),
        points: DEMO_RULE.points.map((p) => ({ point: p.point, modes: [...p.modes] })),
        times: [{ day: 3, times: ['12:00'] }],
      }),
      null,
    );
    await updateRule(off.id, { enable: false });
    const before = { rows: await rowKeys(), totals: await totals() };
    expect(before.totals).toEqual({ sites: ids.size, rules: 2 });
    await stack.stop();
    stack = undefined;

    // The restore point: the stopped stack's DATA_DIR, copied whole.
    const began = Date.now();
    await cp(source, restored, { recursive: true });
    const copied = Date.now();
    stack = await start(restored);
    const started = Date.now();

    // Nothing lost: the same rows, the same totals.
    expect(await rowKeys()).toEqual(before.rows);
    expect(await totals()).toEqual(before.totals);
    // The start ran the repair to its end (a resumable run: its record says so).
    const { repairProgress } = await import('../../functions/data/repairProgress.js');
    expect(await repairProgress().get('', { consistent: true })).toMatchObject({ finished_at: expect.any(Number) });

    // Schedules: the plan emptied (as schedules that follow no rule of the restored table), then
    // re-synced from the restored rules by the handler: the enabled rule's 14 slots, not the paused one's.
    const { localRuleScheduler } = await import('../../functions/autoCheck/scheduler/ruleSchedulerInUse.js');
    await localRuleScheduler.resyncAll([], localRuleScheduler.zone);
    expect(localRuleScheduler.size).toBe(0);
    const { handler: syncSchedules } = await import('../../functions/autoCheck/syncSchedules.js');
    expect(await syncSchedules()).toMatchObject({ rules: 2 });
    expect(localRuleScheduler.size).toBe(1);
    const now = Date.now();
    const week = localRuleScheduler.due(now, now + 7 * 24 * 3600_000);
    expect(week).toHaveLength(14);
    expect(new Set(week.map((f) => f.ruleId)).size).toBe(1);
    expect(week.some((f) => f.ruleId === off.id)).toBe(false);

    // Counters: drifted (as a stream batch lost in the restore window would leave them), repaired.
    for (const c of await scanAll((i) => String(i.pk).startsWith('count#site'))) {
      const drifted = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, k === 'pk' || k === 'sk' ? v : 999]));
      await dynamoClient().send(new PutCommand({ TableName: config.tableName, Item: drifted }));
    }
    expect((await totals()).sites).toBe(999);
    const repairAt = Date.now();
    const { handler: repair } = await import('../../functions/data/repair.js');
    const outcome = await repair({ restart: true }, { getRemainingTimeInMillis: () => 300_000 });
    expect(outcome.status).toBe('finished');
    expect(await totals()).toEqual(before.totals);
    expect(await rowKeys()).toEqual(before.rows);
    const done = Date.now();
    console.log(
      `[restore rehearsal] copy ${copied - began} ms, start on the copy ${started - copied} ms (its repair included), ` +
        `schedule sync and a second repair ${done - repairAt} ms; ${before.rows.length} rows`,
    );
  });
});
