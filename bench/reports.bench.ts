// A week's report at 10^6 subtasks (issue 46 item 1: ≤ 200 RCU), on the local stack: BENCH_SITES
// (100) sites × 16 (process, mode) cells × the 7 days of last week, BENCH_SUBTASKS (10^6) subtasks
// seeded through the check rollup's own day-item ADDs (functions/checks/checkRollup.ts subtaskRollup,
// summed per item: what the engine's one ADD per subtask leaves), BENCH_BANK_ACCOUNTS (50, the example
// install of docs/costs.md; each account adds ~0.4 RCU, most of it its ~2 KB row read for its name)
// bank accounts made by the bank service with a week of day figures (2,880 polls a day with their lag
// sketch, statements by hour, deliveries), 20 incidents. Then the report is computed BENCH_REPS (5)
// times in this process (functions/reports/compute.ts) and its read units taken from DynamoDB's own
// ConsumedCapacity of every call (readUnits.ts). Exits 1 above the budget.
// Small while others work: BENCH_SITES=10 BENCH_SUBTASKS=100000 BENCH_BANK_ACCOUNTS=20 npm run bench -- reports

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, dayOf, dayStart } from '../shared/calendarDay.js';
import { RunStatus } from '../shared/enums.js';
import { wallClock } from '../shared/zoneClock.js';
import { LAMBDAS } from '../functions/registry.js';
import { startLocalStack } from '../scripts/local/stack.js';
import { apiCaller } from './apiCaller.js';

const SITES = Number(process.env.BENCH_SITES ?? 100);
const SUBTASKS = Number(process.env.BENCH_SUBTASKS ?? 1_000_000);
const ACCOUNTS = Number(process.env.BENCH_BANK_ACCOUNTS ?? 50);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const BUDGET_RCU = 200;
const ZONE = 'Asia/Yangon';
const CELLS = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((process) => [1, 3].map((mode) => ({ process, mode })));
const ADMIN_PASSWORD = 'bench-admin-pass-1';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dataDir = mkdtempSync(join(tmpdir(), 'patrol-bench-reports-'));
const stack = await startLocalStack({
  dataDir,
  secondFactor: 'off',
  port: 0,
  demo: false,
  quiet: true,
  adminPassword: ADMIN_PASSWORD,
  // Nothing runs beside the report: no polls, checks, repairs or ticks (the reports tick would make one too).
  lambdas: LAMBDAS.filter((l) => l.name === 'api'),
});
Object.assign(process.env, stack.env);
const { resetClients } = await import('../functions/lib/aws/clients.js');
resetClients();
const { subtaskRollup } = await import('../functions/checks/checkRollup.js');
const { addToRollup, mergeRollupAdds } = await import('../functions/lib/db/rollups.js');
const { mapLimit } = await import('../functions/lib/mapLimit.js');
const bankService = await import('../functions/bank/service.js');
const { bankStore } = await import('../functions/bank/store.js');
const { sketchAttr, sketchBucket } = await import('../functions/lib/durationSketch.js');
const { incidentStore } = await import('../functions/incidents/store.js');
const { computeReport } = await import('../functions/reports/compute.js');
const call = apiCaller(stack.url);

let failed = false;
try {
  const token = (
    (await call('POST', '/login', undefined, { username: 'admin', password: ADMIN_PASSWORD })).data as { jwt: string }
  ).jwt;
  const now = Date.now();
  const today = dayOf(now, ZONE);
  const monday = addDays(addDays(today, 1 - wallClock(now, ZONE).day), -7);
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  console.log(
    `week ${monday}: ${SITES} sites, ${SUBTASKS.toLocaleString()} subtasks, ${ACCOUNTS} accounts; load ${loadavg()[0].toFixed(2)}`,
  );

  const seedStarted = performance.now();
  const siteIds = await mapLimit(
    Array.from({ length: SITES }, (_, i) => i),
    6,
    async (i) =>
      (
        (
          await call('POST', '/sites', token, {
            name: `Site-${String(i + 1).padStart(3, '0')}`,
            url: stack.sandboxSiteUrl,
            accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
          })
        ).data as { id: number }
      ).id,
  );
  const rnd = random(46);
  const perCellDay = SUBTASKS / (siteIds.length * CELLS.length * days.length);
  for (const [d, day] of days.entries()) {
    const adds = [];
    for (const [s, site_id] of siteIds.entries())
      for (const [c, { process, mode }] of CELLS.entries()) {
        const k = (d * siteIds.length + s) * CELLS.length + c;
        const n = Math.floor((k + 1) * perCellDay) - Math.floor(k * perCellDay);
        for (let i = 0; i < n; i++) {
          const failed = rnd() < 0.03 + (s % 17 === 0 ? 0.2 : 0);
          const ms = Math.round((800 + process * 400) * Math.exp((rnd() - 0.5) * 0.8));
          const end = dayStart(day, ZONE) + Math.floor((i / n) * 86_000_000);
          const rollup = subtaskRollup(
            {
              site_id,
              process: process as never,
              mode: mode as never,
              status: failed ? RunStatus.values.Failed : RunStatus.values.Done,
              start_at: end - ms,
              end_at: end,
              flaky: !failed && rnd() < 0.02,
              degraded: !failed && ms > 3000 + process * 400,
              duration_ms: ms,
            },
            ZONE,
          );
          if (rollup) adds.push(rollup.day_add);
        }
      }
    await mapLimit(mergeRollupAdds(adds), 32, (change) => addToRollup(change));
    console.log(`  ${day}: ${adds.length.toLocaleString()} subtasks`);
  }

  const store = bankStore();
  await mapLimit(
    Array.from({ length: ACCOUNTS }, (_, i) => i),
    8,
    async (i) => {
      const account = await bankService.createAccount({
        bank_name: i % 2 ? 2 : 1,
        user: `rep${String(i).padStart(4, '0')}`,
        pwd: 'sandbox123',
      });
      for (const day of days) {
        const figures: Record<string, number> = { polls: 2880, polls_failed: Math.floor(rnd() * 30) };
        for (let p = 0; p < 2880; p += 10) {
          const lag = Math.round(30 * Math.exp(rnd() * 3.5) * (rnd() < 0.02 ? 20 : 1));
          const attr = sketchAttr('l', sketchBucket(lag));
          figures[attr] = (figures[attr] ?? 0) + 10;
        }
        let statements = 0;
        for (let h = 8; h < 21; h++) {
          const n = Math.floor(rnd() * 5);
          if (n) figures[`h${h}`] = n;
          statements += n;
        }
        Object.assign(figures, {
          statements,
          balances: Math.round(statements * 0.9),
          unreconciled: rnd() < 0.1 ? 1 : 0,
          wh_sent: statements,
          wh_failed: i % 9 === 0 ? 1 : 0,
          tg_sent: statements,
          tg_failed: i % 13 === 0 ? 1 : 0,
        });
        await store.addDayFigures(day, account.id, figures);
      }
    },
  );

  const incidents = incidentStore();
  for (let i = 0; i < 20; i++) {
    const opened = dayStart(days[i % 7], ZONE) + (9 + (i % 8)) * 3_600_000;
    const id = await incidents.newId();
    await incidents.create(
      {
        kind: 'check',
        site_id: siteIds[i % siteIds.length],
        site_name: `Site-${String((i % siteIds.length) + 1).padStart(3, '0')}`,
        process: 2,
        mode: 1,
        status: 4,
        opened_at: opened,
        resolved_at: opened + 3_600_000,
        failures: 3,
        last_failure_at: opened,
        last_message: 'bench',
        acknowledged_by: null,
        snoozed_until: null,
        severity: 'warning',
        parent_id: null,
        cause: null,
        children: 0,
        open_key: `bench:${id}`,
        created_at: opened,
      } as never,
      id,
    );
  }
  console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

  const runs: { rcu: number; ms: number; parts: Record<string, number> }[] = [];
  for (let r = 0; r < REPS; r++) {
    const started = performance.now();
    const { figures, rcu, parts } = await computeReport('week', monday);
    runs.push({ rcu, ms: performance.now() - started, parts });
    if (r === 0)
      console.log(
        `report: ${figures.sites.length} sites, ${figures.sites.reduce((a, s) => a + s.total.runs, 0).toLocaleString()} runs, ${figures.bank.accounts.length} accounts, ${figures.incidents.rows.length} incidents`,
      );
  }
  const rcu = median(runs.map((r) => r.rcu));
  console.log(
    JSON.stringify({
      sites: SITES,
      subtasks: SUBTASKS,
      accounts: ACCOUNTS,
      rcu,
      rcu_max: Math.max(...runs.map((r) => r.rcu)),
      parts: runs[runs.length - 1].parts,
      median_ms: Math.round(median(runs.map((r) => r.ms))),
      load: loadavg()[0].toFixed(2),
    }),
  );
  if (rcu > BUDGET_RCU) {
    console.error(`a week's report read ${rcu} RCU, over the budget of ${BUDGET_RCU}`);
    failed = true;
  }
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
